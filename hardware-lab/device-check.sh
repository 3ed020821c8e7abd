#!/usr/bin/env bash
# One-shot device check for a machine with an NVIDIA GPU (issue 6 acceptance: "on a host with an NVIDIA GPU it reads
# the real counter"). Run from the repository root, with node_modules present; writes everything under $OUT:
#   bash hardware-lab/device-check.sh
# It runs the lab probe with a timeout, then verifies the sealed report. Nothing here changes the GPU's settings.
set -uo pipefail
OUT="${OUT:-$(mktemp -d)}"
mkdir -p "$OUT/reports"
{
  echo "== host"; uname -a; node --version
  echo "== nvidia-smi"; (command -v nvidia-smi >/dev/null && timeout 20 nvidia-smi --query-gpu=name,driver_version,power.draw,power.limit,enforced.power.limit --format=csv) || echo "nvidia-smi not available"
  echo "== libnvidia-ml"; (ldconfig -p 2>/dev/null | grep -i nvidia-ml) || echo "libnvidia-ml not in the loader cache"
  echo "== powercap"; ls /sys/class/powercap 2>&1 | head -20
} > "$OUT/host.txt" 2>&1
# prefer the package script; fall back to tsx directly where package.json does not have it yet
if node -e "process.exit(require('./package.json').scripts?.['lab:probe'] ? 0 : 1)"; then
  CMD=(npm run -s lab:probe -- --out "$OUT/reports")
else
  CMD=(npx tsx hardware-lab/lab.ts --out "$OUT/reports")
fi
timeout 120 "${CMD[@]}" > "$OUT/lab-probe.txt" 2>&1
rc=$?
echo "lab:probe exit status $rc" >> "$OUT/lab-probe.txt"
for f in "$OUT"/reports/*.json; do
  [ -e "$f" ] || continue
  npx tsx hardware-lab/lab.ts verify "$f" >> "$OUT/lab-probe.txt" 2>&1
done
cat "$OUT/host.txt" "$OUT/lab-probe.txt"
exit $rc
