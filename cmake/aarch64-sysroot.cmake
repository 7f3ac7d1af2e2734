# Toolchain of an aarch64 rlab built on another machine (preset aarch64-rlab,
# scripts/build-aarch64-rlab.sh): Debian's cross compiler against an arm64 sysroot that holds
# rlab's build dependencies — bookworm's arm64 -dev packages unpacked by mmdebstrap, since
# several of them (prometheus-cpp-dev, libyaml-cpp-dev) cannot be installed beside their amd64
# selves through multiarch. RLAB_ARM64_SYSROOT (cache variable or environment) names it.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
# A toolchain file is read again where the cache is not seen (each try_compile): the
# environment carries the sysroot there.
if(NOT RLAB_ARM64_SYSROOT)
  set(RLAB_ARM64_SYSROOT "$ENV{RLAB_ARM64_SYSROOT}")
endif()
set(ENV{RLAB_ARM64_SYSROOT} "${RLAB_ARM64_SYSROOT}")
if(NOT RLAB_ARM64_SYSROOT OR NOT IS_DIRECTORY "${RLAB_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu")
  message(FATAL_ERROR "RLAB_ARM64_SYSROOT '${RLAB_ARM64_SYSROOT}' is no arm64 sysroot: scripts/build-aarch64-rlab.sh makes one")
endif()
set(CMAKE_SYSROOT "${RLAB_ARM64_SYSROOT}")
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH "${RLAB_ARM64_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${RLAB_ARM64_SYSROOT}")
set(ENV{PKG_CONFIG_LIBDIR} "${RLAB_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${RLAB_ARM64_SYSROOT}/usr/share/pkgconfig")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L "${RLAB_ARM64_SYSROOT}")
