#!/usr/bin/env bash
# Installs the Debian packages gcn-webgpu needs when they are missing:
#   chromium      the browser the app and the Playwright tests run in (never downloaded by Playwright)
#   libvulkan1    the Vulkan loader Dawn for Node opens to reach SwiftShader
#   spirv-tools   spirv-val, which validates every SPIR-V module the translator writes
#   llvm-19       llvm-mc-19, the oracle the instruction layer is checked and benchmarked against
# A user who is not root is told the exact command instead.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -f /usr/lib/chromium/vk_swiftshader_icd.json ] || need+=(chromium)
ldconfig -p 2>/dev/null | grep -q 'libvulkan.so.1' || need+=(libvulkan1)
command -v spirv-val >/dev/null 2>&1 || need+=(spirv-tools)
command -v llvm-mc-19 >/dev/null 2>&1 || need+=(llvm-19)

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
mapfile -t need < <(printf '%s\n' "${need[@]}" | sort -u)
cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${need[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "gcn-webgpu needs these Debian packages: ${need[*]}" >&2
  echo "Run as root:  sudo sh -c '$cmd'" >&2
  exit 1
fi
echo "setup: installing ${need[*]}" >&2
sh -c "$cmd" >&2
