# BPF C programs for the agent and the libbpf that loads them.
#
# rlab_bpf_skeleton(<target> <name> <source.bpf.c> [headers...]) compiles the program (its own
# folder on the include path; rebuilt when it or the headers change) with clang -target bpf (-O2 -g: BTF for its maps, no CO-RE), drops the DWARF with
# `bpftool gen object` and writes the skeleton <name>.skel.h (struct <name>_bpf) into
# ${CMAKE_CURRENT_BINARY_DIR}/bpf, added to <target>'s include path. The object is the same
# for every target architecture: the programs read only raw tracepoints' u64 arguments.
#
# rlab::libbpf: libbpf's headers and libraries (libbpf-dev, libelf-dev, zlib1g-dev). Dynamic
# builds link the host's through pkg-config; a static build (RLAB_STATIC, the aarch64 agent)
# links the archives libbpf.a, libelf.a and libz.a of the target's multiarch directory by full
# path: on an aarch64 machine the native ones, elsewhere Debian's arm64 archives
# (libbpf-dev:arm64 ... from the arm64 architecture scripts/setup.sh adds), so no other arm64
# library comes into view.
find_program(RLAB_CLANG clang REQUIRED)
find_program(RLAB_BPFTOOL bpftool PATHS /usr/sbin /sbin REQUIRED)

if(RLAB_STATIC)
  set(_arch_dir "/usr/lib/${CMAKE_SYSTEM_PROCESSOR}-linux-gnu")
  set(_libs)
  foreach(_lib bpf elf z)
    set(_a "${_arch_dir}/lib${_lib}.a")
    if(NOT EXISTS "${_a}")
      if(CMAKE_CROSSCOMPILING)
        message(FATAL_ERROR "${_a} not found: run scripts/setup.sh (dpkg --add-architecture arm64; "
                            "libbpf-dev:arm64 libelf-dev:arm64 zlib1g-dev:arm64)")
      else()
        message(FATAL_ERROR "${_a} not found: run scripts/setup.sh (libbpf-dev libelf-dev zlib1g-dev)")
      endif()
    endif()
    list(APPEND _libs "${_a}")
  endforeach()
  # Just the bpf/ headers (architecture-independent), not the host's /usr/include.
  set(_stage "${CMAKE_BINARY_DIR}/libbpf-headers")
  file(MAKE_DIRECTORY "${_stage}")
  file(CREATE_LINK "/usr/include/bpf" "${_stage}/bpf" SYMBOLIC)
  add_library(rlab_libbpf INTERFACE)
  target_include_directories(rlab_libbpf SYSTEM INTERFACE "${_stage}")
  target_link_libraries(rlab_libbpf INTERFACE ${_libs})
else()
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(LIBBPF REQUIRED IMPORTED_TARGET libbpf)
  add_library(rlab_libbpf INTERFACE)
  target_link_libraries(rlab_libbpf INTERFACE PkgConfig::LIBBPF)
endif()
add_library(rlab::libbpf ALIAS rlab_libbpf)

# The host's multiarch include directory: <asm/types.h> for <linux/bpf.h> under -target bpf.
execute_process(COMMAND ${RLAB_CLANG} -print-multiarch OUTPUT_VARIABLE _multiarch OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _multiarch)
  set(_multiarch "x86_64-linux-gnu")
endif()
set(RLAB_BPF_ASM_INCLUDE "/usr/include/${_multiarch}" CACHE INTERNAL "")

function(rlab_bpf_skeleton target name source)
  set(_out "${CMAKE_CURRENT_BINARY_DIR}/bpf")
  file(MAKE_DIRECTORY "${_out}")
  get_filename_component(_dir "${source}" DIRECTORY)
  add_custom_command(
    OUTPUT "${_out}/${name}.skel.h"
    COMMAND ${RLAB_CLANG} -O2 -g -Wall -Werror -target bpf -I${RLAB_BPF_ASM_INCLUDE} -I${_dir}
            -c "${source}" -o "${_out}/${name}.tmp.o"
    COMMAND ${RLAB_BPFTOOL} gen object "${_out}/${name}.bpf.o" "${_out}/${name}.tmp.o"
    COMMAND ${RLAB_BPFTOOL} gen skeleton "${_out}/${name}.bpf.o" name "${name}_bpf" > "${_out}/${name}.skel.h"
    DEPENDS "${source}" ${ARGN}
    COMMENT "BPF ${name}: clang -target bpf, bpftool gen skeleton"
    VERBATIM)
  add_custom_target(${target}_${name}_skel DEPENDS "${_out}/${name}.skel.h")
  add_dependencies(${target} ${target}_${name}_skel)
  target_include_directories(${target} PRIVATE "${_out}")
endfunction()
