/*
 * A fake libnvidia-ml.so for CI (issue 6 item 6): the NVML entry points the hardware lab binds, with behaviour read
 * from a control file named after the library itself (<path of this .so>.ctl), so several copies of the library, each
 * loaded from its own path, run independent scenarios in one process. Built by the test setup with the machine's cc:
 *   cc -shared -fPIC -O2 -o fake-nvml.so fake-nvml.c
 * Control file: one `key=value` per line, read at nvmlInit_v2:
 *   count=N               devices (default 1)
 *   name=TEXT             device name
 *   energy_mw=N           the counter's accrual rate, milliwatts of the monotonic clock (0: frozen)
 *   step_mj=N             instead: the counter advances N mJ on every nvmlDeviceGetTotalEnergyConsumption call
 *   lump_calls=N          with step_mj: the count is republished only every N calls (lumps)
 *   lump_ms=N             the count is republished only at multiples of N ms (lumps)
 *   draw_mw=A,B,C,...     nvmlDeviceGetPowerUsage answers these in turn (cycling)
 *   limit_mw=N            nvmlDeviceGetEnforcedPowerLimit
 *   err_init=N, err_count=N, err_handle=N, err_energy=N, err_power=N, err_limit=N, err_name=N: return code N
 *   err_energy_after=N    nvmlDeviceGetTotalEnergyConsumption fails (with err_energy, default 999) after N successes
 *   start_mj=N            the counter's value at init
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct fake_device { int index; } *nvmlDevice_t;

static struct fake_device devices[8];
static int initialized = 0;
static unsigned count = 1;
static char name[96] = "Fake NVML GPU";
static unsigned long long energy_mw = 0, step_mj = 0, lump_ms = 0, lump_calls = 0, start_mj = 0, limit_mw = 0;
static unsigned long long draw[64];
static unsigned ndraw = 0, draw_i = 0;
static int err_init = 0, err_count = 0, err_handle = 0, err_energy = 0, err_power = 0, err_limit = 0, err_name = 0;
static long err_energy_after = -1;
static long energy_calls = 0;
static struct timespec t0;

static long long elapsed_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)(t.tv_sec - t0.tv_sec) * 1000LL + (t.tv_nsec - t0.tv_nsec) / 1000000LL;
}

static void read_control(void) {
  Dl_info info;
  char path[4096];
  if (!dladdr((void *)&read_control, &info) || !info.dli_fname) return;
  snprintf(path, sizeof path, "%s.ctl", info.dli_fname);
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    char *eq = strchr(line, '=');
    if (!eq) continue;
    *eq = 0;
    char *v = eq + 1;
    v[strcspn(v, "\r\n")] = 0;
    if (!strcmp(line, "count")) count = (unsigned)strtoul(v, 0, 10);
    else if (!strcmp(line, "name")) snprintf(name, sizeof name, "%s", v);
    else if (!strcmp(line, "energy_mw")) energy_mw = strtoull(v, 0, 10);
    else if (!strcmp(line, "step_mj")) step_mj = strtoull(v, 0, 10);
    else if (!strcmp(line, "lump_ms")) lump_ms = strtoull(v, 0, 10);
    else if (!strcmp(line, "lump_calls")) lump_calls = strtoull(v, 0, 10);
    else if (!strcmp(line, "start_mj")) start_mj = strtoull(v, 0, 10);
    else if (!strcmp(line, "limit_mw")) limit_mw = strtoull(v, 0, 10);
    else if (!strcmp(line, "draw_mw")) {
      ndraw = 0;
      for (char *tok = strtok(v, ","); tok && ndraw < 64; tok = strtok(0, ",")) draw[ndraw++] = strtoull(tok, 0, 10);
    }
    else if (!strcmp(line, "err_init")) err_init = atoi(v);
    else if (!strcmp(line, "err_count")) err_count = atoi(v);
    else if (!strcmp(line, "err_handle")) err_handle = atoi(v);
    else if (!strcmp(line, "err_energy")) err_energy = atoi(v);
    else if (!strcmp(line, "err_power")) err_power = atoi(v);
    else if (!strcmp(line, "err_limit")) err_limit = atoi(v);
    else if (!strcmp(line, "err_name")) err_name = atoi(v);
    else if (!strcmp(line, "err_energy_after")) err_energy_after = atol(v);
  }
  fclose(f);
  if (count > 8) count = 8;
}

int nvmlInit_v2(void) {
  read_control();
  if (err_init) return err_init;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (unsigned i = 0; i < 8; i++) devices[i].index = (int)i;
  initialized = 1;
  return 0;
}

int nvmlShutdown(void) {
  if (!initialized) return 1; /* NVML_ERROR_UNINITIALIZED */
  initialized = 0;
  return 0;
}

int nvmlDeviceGetCount_v2(unsigned *out) {
  if (!initialized) return 1;
  if (err_count) return err_count;
  if (!out) return 2;
  *out = count;
  return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned index, nvmlDevice_t *out) {
  if (!initialized) return 1;
  if (err_handle) return err_handle;
  if (!out || index >= count) return 2; /* NVML_ERROR_INVALID_ARGUMENT */
  *out = &devices[index];
  return 0;
}

static int valid(nvmlDevice_t d) { return d >= &devices[0] && d < &devices[count]; }

int nvmlDeviceGetName(nvmlDevice_t d, char *out, unsigned length) {
  if (!initialized) return 1;
  if (err_name) return err_name;
  if (!valid(d) || !out) return 2;
  if (strlen(name) + 1 > length) return 7; /* NVML_ERROR_INSUFFICIENT_SIZE */
  strcpy(out, name);
  return 0;
}

int nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t d, unsigned long long *out) {
  if (!initialized) return 1;
  if (err_energy && err_energy_after < 0) return err_energy;
  if (!valid(d) || !out) return 2;
  if (err_energy_after >= 0 && energy_calls >= err_energy_after) return err_energy ? err_energy : 999;
  energy_calls++;
  if (step_mj) {
    unsigned long long n = (unsigned long long)energy_calls;
    if (lump_calls) n = (n / lump_calls) * lump_calls;
    *out = start_mj + n * step_mj;
    return 0;
  }
  long long ms = elapsed_ms();
  if (lump_ms) ms = (ms / (long long)lump_ms) * (long long)lump_ms;
  /* mW x ms = uJ; the counter is in mJ */
  *out = start_mj + (energy_mw * (unsigned long long)ms) / 1000ULL;
  return 0;
}

int nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned *out) {
  if (!initialized) return 1;
  if (err_power) return err_power;
  if (!valid(d) || !out) return 2;
  if (ndraw == 0) return 3; /* NVML_ERROR_NOT_SUPPORTED */
  *out = (unsigned)draw[draw_i++ % ndraw];
  return 0;
}

int nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned *out) {
  if (!initialized) return 1;
  if (err_limit) return err_limit;
  if (!valid(d) || !out) return 2;
  if (!limit_mw) return 3;
  *out = (unsigned)limit_mw;
  return 0;
}
