package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocLinksResolve checks that what the repository's markdown files
// point to is there, so that a moved file or a renamed section cannot
// leave a doc pointing at nothing:
//   - a markdown link or image, [text](path) or [text](path#anchor): the
//     file, relative to the doc, and the anchor among its headings;
//   - a path of the repository written in the text, in backquotes
//     (`scripts/page-size.sh`, `report/chart/`) or bare (docs/TREND.md):
//     the file or directory, relative to the repository's root or to the
//     doc;
//   - a section named after a doc, docs/TREND.md, "The same build" or
//     `docs/PERFORMANCE.md` ("Trend"): a heading of that doc, or the bold
//     words that open one of its paragraphs or list items.
//
// A path with a placeholder or a pattern in it (results/<run-id>/,
// charts/strip-*.png, shard-{0,1}) names no one file and is not checked,
// nor is a path under results/, which a run writes.
func TestDocLinksResolve(t *testing.T) {
	root := repoRoot(t)
	docs := docMarkdownFiles(t, root)
	if len(docs) < 8 {
		t.Fatalf("found %d markdown files (%v), want README.md and docs/*.md at least", len(docs), docs)
	}
	for _, doc := range docs {
		b, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range docLinkFaults(root, doc, string(b)) {
			t.Errorf("%s", bad)
		}
	}
}

// TestDocLinkFaultsFound: the checks of TestDocLinksResolve find each
// kind of fault, so that a change of their patterns cannot leave them
// checking nothing.
func TestDocLinkFaultsFound(t *testing.T) {
	root := repoRoot(t)
	text := strings.Join([]string{
		"[ok](TIMING.md) [gone](NOWHERE.md) ![img](ecdf-time.png)",
		"[anchor ok](TREND.md#the-three-detectors) [anchor gone](TREND.md#no-such-section)",
		"`scripts/page-size.sh` `scripts/no-such.sh` docs/NIGHTLY.md docs/GONE.md",
		"`results/<run-id>/` `charts/strip-*.png` `results/latest`",
		`docs/TREND.md, "The three detectors" and docs/TREND.md, "No such section";`,
		"`docs/PERFORMANCE.md` (\"Trend\"), docs/TIMING.md, \"Why each rule\".",
	}, "\n")
	got := docLinkFaults(root, "docs/TEST.md", text)
	want := []string{"NOWHERE.md", "#no-such-section", "scripts/no-such.sh", "docs/GONE.md", `"No such section"`}
	if len(got) != len(want) {
		t.Errorf("%d faults, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || strings.Contains(g, w)
		}
		if !found {
			t.Errorf("no fault names %s:\n%s", w, strings.Join(got, "\n"))
		}
	}
}

// docMarkdownFiles returns the repository's markdown files that are docs
// (git's list when there is one, else a walk), not test data.
func docMarkdownFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	if out, err := exec.Command("git", "-C", root, "ls-files", "*.md").Output(); err == nil && len(out) > 0 {
		files = strings.Fields(string(out))
	} else {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == ".git" || d.Name() == "results") {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".md") {
				rel, _ := filepath.Rel(root, path)
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var docs []string
	for _, f := range files {
		if !strings.Contains(f, "testdata/") {
			docs = append(docs, f)
		}
	}
	return docs
}

var (
	mdLink = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)
	// A path of the repository: a top-level directory, then names.
	repoPath = regexp.MustCompile(`^(?:\.ci|cmd|corpus|data|docs|examples|history|internal|pipeline|publish|report|rundir|scripts|show|solvers|sweep|variants)(?:/[A-Za-z0-9_.-]+)*/?$`)
	barePath = regexp.MustCompile(`\b(?:docs|data|examples)/[A-Za-z0-9_-]+\.md\b`)
	// A section of a doc: docs/X.md, "Section" or docs/X.md ("Section"),
	// the doc's name in backquotes or not.
	sectionRef = regexp.MustCompile("(docs/[A-Za-z]+\\.md)`?(?:,|'s)? \\(?\"([^\"]+)\"")
)

// docLinkFaults returns a line for each link, path or section of text
// (the doc at doc, a path relative to root) that does not resolve.
func docLinkFaults(root, doc, text string) []string {
	var faults []string
	dir := filepath.Dir(doc)
	exists := func(rel string) bool {
		_, err := os.Stat(filepath.Join(root, rel))
		return err == nil
	}
	for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		file, anchor, _ := strings.Cut(target, "#")
		if file == "" {
			file = doc
		} else {
			file = filepath.ToSlash(filepath.Join(dir, file))
		}
		if !exists(file) {
			faults = append(faults, doc+": the link "+m[0]+": no file "+file)
			continue
		}
		if anchor != "" && strings.HasSuffix(file, ".md") && !docHasAnchor(root, file, anchor) {
			faults = append(faults, doc+": the link "+m[0]+": "+file+" has no heading #"+anchor)
		}
	}
	seen := map[string]bool{}
	checkPath := func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		if !exists(p) && !exists(filepath.Join(dir, p)) {
			faults = append(faults, doc+": "+p+" names no file of the repository")
		}
	}
	for _, m := range inlineCode.FindAllStringSubmatch(text, -1) {
		if p := m[1]; repoPath.MatchString(p) {
			checkPath(p)
		}
	}
	for _, p := range barePath.FindAllString(text, -1) {
		checkPath(p)
	}
	for _, m := range sectionRef.FindAllStringSubmatch(text, -1) {
		target, section := m[1], m[2]
		if !exists(target) {
			continue // named above
		}
		if !docHasSection(root, target, section) {
			faults = append(faults, doc+": "+target+" has no section \""+section+"\"")
		}
	}
	return faults
}

// docHasSection reports whether the doc has a heading that reads
// section, or a paragraph or list item that opens with it in bold.
func docHasSection(root, doc, section string) bool {
	b, err := os.ReadFile(filepath.Join(root, doc))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if h := strings.TrimLeft(line, "#"); h != line && strings.TrimSpace(h) == section {
			return true
		}
		item := strings.TrimPrefix(line, "- ")
		if strings.HasPrefix(item, "**"+section) {
			return true
		}
	}
	return false
}

// docHasAnchor reports whether the doc has a heading whose anchor, as
// GitHub makes it (lower case, spaces to hyphens, punctuation dropped),
// is anchor.
func docHasAnchor(root, doc, anchor string) bool {
	b, err := os.ReadFile(filepath.Join(root, doc))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		h := strings.TrimLeft(line, "#")
		if h == line || !strings.HasPrefix(h, " ") {
			continue
		}
		var slug strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(h)) {
			switch {
			case r == ' ' || r == '-':
				slug.WriteRune('-')
			case r == '_' || ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') || r > 127:
				slug.WriteRune(r)
			}
		}
		if slug.String() == anchor {
			return true
		}
	}
	return false
}
