# Toolchain of the static aarch64 guest agent (preset aarch64-agent).
#
# On an aarch64 machine the agent is built natively: nothing is set here, so CMake uses the
# machine's own compiler (build-essential), does not cross compile (CMAKE_CROSSCOMPILING is
# false) and runs what it builds directly; cmake/bpf.cmake links the native libbpf, libelf and
# zlib archives. Anywhere else it is Debian's cross compiler (g++-aarch64-linux-gnu) with the
# arm64 libraries of the foreign architecture, and what it builds runs under qemu-user.
if(CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  return()
endif()
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Tests of the cross build run under qemu-user (qemu-user-static).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
