# Provides the INTERFACE target rlab::header_only: Boost (Asio) and nlohmann-json headers.
# Native builds use the system include directory. Cross builds stage symlinks to just the
# boost/ and nlohmann/ trees so the target's own libc headers are the only ones in view.
add_library(rlab_header_only INTERFACE)
add_library(rlab::header_only ALIAS rlab_header_only)
if(CMAKE_CROSSCOMPILING)
  set(_stage "${CMAKE_BINARY_DIR}/header-only")
  file(MAKE_DIRECTORY "${_stage}")
  foreach(_dir boost nlohmann)
    if(NOT EXISTS "/usr/include/${_dir}")
      message(FATAL_ERROR "/usr/include/${_dir} not found: install libboost-dev and nlohmann-json3-dev")
    endif()
    file(CREATE_LINK "/usr/include/${_dir}" "${_stage}/${_dir}" SYMBOLIC)
  endforeach()
  target_include_directories(rlab_header_only SYSTEM INTERFACE "${_stage}")
endif()
# Boost 1.74's asio headers use std::exchange without including <utility> under GCC 12.
target_compile_options(rlab_header_only INTERFACE -include utility)
target_compile_definitions(rlab_header_only INTERFACE BOOST_ASIO_NO_DEPRECATED)
