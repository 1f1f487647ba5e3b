// adapter speaks docs/PROTOCOL.md for tdoku (github.com/t-dillon/tdoku),
// the fastest published Sudoku solver, so that batch sweeps it beside the
// built-in strategies:
//
//   examples/tdoku/build.sh TDOKU_DIR            (builds examples/tdoku/adapter)
//   batch -solvers bitboard,tdoku -ext tdoku=examples/tdoku/adapter
//
// It solves 9x9 grids with tdoku's fastest solver, TdokuSolverDpllTriadSimd:
// limit 1 for `solve` (the first solution); limit 2 for `count`, and then,
// when there is a solution, limit 1 for it, since tdoku gives no solution
// when counting (with configuration 1 it returns one, but a stale one when
// propagation alone solves the puzzle) and the protocol wants one with a
// count, as tdoku's example/solve.c does. It reports
//
//   guesses: tdoku's own count of guesses (branches of its search), of the
//            counting call for `count`;
//   ns:      clock_gettime(CLOCK_MONOTONIC) read just before and just after
//            the solver calls, nothing else inside.
//
// TDOKU_REVISION, the checkout's git revision, is set by build.sh.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tdoku.h"

#ifndef TDOKU_REVISION
#define TDOKU_REVISION "unknown"
#endif

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

// answer writes the answer to one request "N solve|count ID GRID": its
// fields n, verb and grid (the ID is the puzzle's, for logs). The answer
// starts with n.
static void answer(const char *n, const char *verb, const char *grid) {
    int limit = strcmp(verb, "solve") == 0 ? 1 : strcmp(verb, "count") == 0 ? 2 : 0;
    size_t len = strlen(grid);
    if (limit == 0) {
        printf("%s error unknown request %.20s\n", n, verb);
        return;
    }
    if (len == 16 || len == 256) {
        printf("%s unsupported tdoku solves 9x9 grids only\n", n);
        return;
    }
    // tdoku reads '.' for an empty cell (a '0' gives garbage) and does not
    // check its input: anything but 81 of '0'-'9' and '.' is refused here.
    char puzzle[82], solution[82] = {0};
    if (len != 81 || strspn(grid, ".0123456789") != 81) {
        printf("%s error not a 9x9 grid of '0'-'9' or '.'\n", n);
        return;
    }
    for (int i = 0; i < 81; i++) puzzle[i] = grid[i] == '0' ? '.' : grid[i];
    puzzle[81] = 0;
    size_t guesses = 0;
    int64_t t0 = now_ns();
    size_t count = TdokuSolverDpllTriadSimd(puzzle, limit, 0, solution, &guesses), again;
    if (limit == 2 && count > 0) TdokuSolverDpllTriadSimd(puzzle, 1, 0, solution, &again);
    int64_t ns = now_ns() - t0;
    if (limit == 2)
        printf("%s count %zu%s%.81s guesses=%zu ns=%lld\n", n, count, count ? " " : "", solution, guesses, (long long)ns);
    else if (count > 0)
        printf("%s solved %.81s guesses=%zu ns=%lld\n", n, solution, guesses, (long long)ns);
    else
        printf("%s unsolvable guesses=%zu ns=%lld\n", n, guesses, (long long)ns);
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    if (getline(&line, &cap, stdin) < 0 || strncmp(line, "sudokubatch 2", 13) != 0 ||
        strspn(line + 13, " \t\r\n") != strlen(line + 13)) {
        fprintf(stderr, "tdoku adapter: expected the handshake 'sudokubatch 2' (protocol 2)\n");
        return 1;
    }
    printf("solver tdoku %s count guesses ns\n", TDOKU_REVISION);
    fflush(stdout);
    while (getline(&line, &cap, stdin) >= 0) {
        char *f[5] = {0};
        int n = 0;
        for (char *tok = strtok(line, " \t\r\n"); tok && n < 5; tok = strtok(NULL, " \t\r\n")) f[n++] = tok;
        if (n == 0) continue;
        // "N solve|count ID GRID": no KEY=VALUE follows (max_calls is sent
        // only to a program that reports calls: tdoku counts none).
        if (n == 4)
            answer(f[0], f[1], f[3]);
        else
            printf("%s error not a request of four fields\n", f[0]);
        if (fflush(stdout) != 0) return 1;
    }
    free(line);
    return 0;
}
