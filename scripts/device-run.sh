#!/usr/bin/env bash
# On a device machine that reaches no registry, from the repo root, after
# `npm run bench:device:bundle -- --carry` here (docs/performance-device.md): unpacks the Vulkan loader
# (.gl/*.deb, the device README's recipe), Node (when the machine has none) and Dawn's addon, then runs
# the bundled bench:device and bench:gpu's host-ratio case with three warm-up iterations. Writes
# summary.json, progress.log, parts.tgz (each part's JSON) and host-ratio.txt to $OUT (or bench-device/).
# DEVICE_BUDGET (seconds, default 300) is bench:device's --budget.
set -u
out="${OUT:-bench-device}"
mkdir -p "$out"
for f in .gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
ldconfig
echo "== Vulkan loader: $(ldconfig -p | grep libvulkan | head -1)"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
# The NVIDIA ICD's usual places; Dawn falls back to SwiftShader if none answers, which bench:device refuses.
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ]; then
    export VK_DRIVER_FILES="$icd"
    echo "== Vulkan ICD: $icd"
    break
  fi
done
if ! command -v node >/dev/null; then
  xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH="/tmp:$PATH"
fi
echo "== node $(node --version); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
dawn=.device/node_modules/webgpu/dist/linux-x64/dawn.node
[ -f "$dawn.xz" ] && xz -dkf "$dawn.xz"
budget="${DEVICE_BUDGET:-300}"
rm -rf /tmp/bench-device
timeout $((budget + 40)) node .device/bench/device.mjs --budget "$budget" --out /tmp/bench-device > "$out/summary.json" 2> "$out/progress.log"
echo "== bench:device exit $?"
tar czf "$out/parts.tgz" -C /tmp bench-device
timeout 120 node .device/bench/gpu.mjs --cases gridhouse-64,gridhouse-4096 --warmup 3 --measure 3 > "$out/host-ratio.txt" 2>&1
echo "== host ratio exit $?"
tail -8 "$out/host-ratio.txt"
