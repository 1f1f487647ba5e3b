package rundir

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// clockTick is the unit of /proc/stat's times: USER_HZ, 100 a second on
// every Linux architecture the tool builds for.
const clockTick = 10_000_000 // ns

// hostBusy returns the CPU time every CPU of the machine has spent busy
// since boot (user, nice, system, irq, softirq and steal: all but idle
// and iowait), from /proc/stat, or -1 where the system does not tell.
// Steal is time the hypervisor gave the virtual CPU to another guest: on
// a shared VM it is the other work of the host.
func hostBusy() int64 {
	f, err := os.Open("/proc/stat")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return -1
	}
	return parseHostBusy(sc.Text())
}

// parseHostBusy reads the first line of /proc/stat ("cpu  user nice
// system idle iowait irq softirq steal guest guest_nice"); -1 when it is
// not one.
func parseHostBusy(line string) int64 {
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return -1
	}
	var busy int64
	for i, v := range f[1:min(len(f), 9)] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return -1
		}
		if i != 3 && i != 4 { // idle, iowait
			busy += n
		}
	}
	return busy * clockTick
}
