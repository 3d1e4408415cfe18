/* The guest's PID 1 for ci/bochs/run: runs one command inside the emulated machine, then powers it off.
 * Built static by ci/bochs/fetch (gcc -static -O2).
 *
 * What to run, from the initramfs ci/bochs/run packs: /run.argv (the command's arguments, NUL-separated), /run.env
 * (KEY=VALUE items, NUL-separated, set before the command), /run.cwd (its working directory).
 * Output protocol on the console (serial): "@@INIT-START uptime=S" before running, the command's own
 * stdout/stderr, then "@@INIT-EXIT status=N uptime=S" (N = exit code, or 128+signal with "signal=SIG" added).
 * If INIT_COPY_OUT names a file the command wrote (the execution records), its lines follow between
 * "@@COPY-OUT-BEGIN" and "@@COPY-OUT-END". Then Bochs' shutdown port 0x8900 ends the emulator at once (kernel
 * parameter INIT_POWEROFF=acpi: reboot(RB_POWER_OFF) instead). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static double uptime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void power_off(void) {
  fflush(NULL);
  /* Let the UART send everything queued: without this the kernel powers off with output still buffered. */
  tcdrain(1);
  tcdrain(2);
  sync();
  /* Bochs' "Shutdown" port (iodev/unmapped.cc) ends the emulator at once (no kernel shutdown path); kernel
   * parameter INIT_POWEROFF=acpi uses reboot(RB_POWER_OFF) (ACPI S5) instead. On other machines writing to
   * port 0x8900 is harmless, and reboot() follows. */
  const char* how = getenv("INIT_POWEROFF");
  if (!(how && !strcmp(how, "acpi")) && ioperm(0x8900, 1, 1) == 0) {
    const char* s = "Shutdown";
    for (; *s; s++) outb(*s, 0x8900);
  }
  reboot(RB_POWER_OFF);
  for (;;) pause();
}

static void setup_console(void) {
  mkdir("/dev", 0755);
  mkdir("/proc", 0555);
  mkdir("/sys", 0555);
  mkdir("/tmp", 01777);
  mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
  mount("proc", "/proc", "proc", 0, NULL);
  mount("sysfs", "/sys", "sysfs", 0, NULL);
  /* /tmp stays the initramfs's own (writable): the packed program or folders may live there. */
  if (fcntl(1, F_GETFD) < 0) {
    int fd = open("/dev/console", O_RDWR | O_NOCTTY);
    if (fd < 0) fd = open("/dev/ttyS0", O_RDWR | O_NOCTTY);
    if (fd >= 0) {
      dup2(fd, 0);
      dup2(fd, 1);
      dup2(fd, 2);
      if (fd > 2) close(fd);
    }
  }
  setvbuf(stdout, NULL, _IOLBF, 0);
}

/* Reads a file of NUL-separated items into a NULL-terminated array in `buf`/`items`, or returns NULL. */
static char** read_items(const char* path, char* buf, size_t size, char** items, int max) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  size_t n = fread(buf, 1, size - 1, f);
  fclose(f);
  buf[n] = 0;
  int count = 0;
  for (size_t i = 0; i < n && count < max - 1;) {
    size_t j = i;
    while (j < n && buf[j] != 0) j++;
    buf[j] = 0;
    if (j > i) items[count++] = buf + i;
    i = j + 1;
  }
  items[count] = NULL;
  return count ? items : NULL;
}

/* The lines of the file INIT_COPY_OUT names, between sentinels, for the host to take back. */
static void copy_out(void) {
  const char* path = getenv("INIT_COPY_OUT");
  FILE* f = path ? fopen(path, "r") : NULL;
  if (!f) return;
  printf("@@COPY-OUT-BEGIN\n");
  char line[8192];
  while (fgets(line, sizeof line, f)) fputs(line, stdout);
  fclose(f);
  printf("@@COPY-OUT-END\n");
}

int main(int argc, char** argv) {
  setup_console();
  setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 0);
  setenv("HOME", "/", 0);
  static char argv_buf[1 << 16], env_buf[1 << 16], cwd[4096];
  static char *argv_items[1024], *env_items[512];
  char** cmd = read_items("/run.argv", argv_buf, sizeof argv_buf, argv_items, 1024);
  if (!cmd && argc > 1) cmd = argv + 1;
  char** env = read_items("/run.env", env_buf, sizeof env_buf, env_items, 512);
  for (; env && *env; ++env) putenv(*env);
  FILE* cwd_file = fopen("/run.cwd", "r");
  if (cwd_file) {
    if (fgets(cwd, sizeof cwd, cwd_file) && cwd[0]) {
      cwd[strcspn(cwd, "\n")] = 0;
      mkdir(cwd, 0755); /* the build folder the command may write to, when nothing packed made it */
      if (chdir(cwd) != 0) printf("init: chdir %s: %s\n", cwd, strerror(errno));
    }
    fclose(cwd_file);
  }
  if (!cmd) {
    printf("@@INIT-EXIT status=127 error=no-command uptime=%.3f\n", uptime());
    power_off();
  }
  printf("@@INIT-START uptime=%.3f cmd=%s\n", uptime(), cmd[0]);
  pid_t pid = fork();
  if (pid == 0) {
    execvp(cmd[0], cmd);
    fprintf(stderr, "init: exec %s: %s\n", cmd[0], strerror(errno));
    _exit(127);
  }
  int st = 0;
  for (;;) { /* reap everything; stop when our child exits */
    pid_t w = wait(&st);
    if (w == pid || (w < 0 && errno == ECHILD)) break;
  }
  fflush(NULL);
  if (WIFSIGNALED(st))
    printf("@@INIT-EXIT status=%d signal=%d uptime=%.3f\n", 128 + WTERMSIG(st), WTERMSIG(st), uptime());
  else
    printf("@@INIT-EXIT status=%d uptime=%.3f\n", WEXITSTATUS(st), uptime());
  copy_out();
  if (getenv("INIT_DMESG")) { /* init.dmesg: kernel param "INIT_DMESG=1" dumps the kernel log after the run */
    int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
    char rec[2048];
    ssize_t n;
    if (fd >= 0)
      while ((n = read(fd, rec, sizeof rec - 1)) > 0 || (n < 0 && errno == EPIPE)) {
        if (n <= 0) continue;
        rec[n] = 0;
        char* msg = strchr(rec, ';'); /* "prio,seq,usec,flags;text" */
        unsigned long long us = 0;
        sscanf(rec, "%*u,%*u,%llu", &us);
        printf("@@KMSG [%6llu.%06llu] %s", us / 1000000, us % 1000000, msg ? msg + 1 : rec);
      }
  }
  power_off();
  return 0;
}
