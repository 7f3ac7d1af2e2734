# CTest fixture: configure and build the static aarch64 agent with the aarch64-agent preset
# into BINARY_DIR (incremental after the first time).
#   cmake -DSOURCE_DIR=... -DBINARY_DIR=... -P build_aarch64.cmake
execute_process(COMMAND ${CMAKE_COMMAND} --preset aarch64-agent -B ${BINARY_DIR}
                WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the aarch64-agent preset failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} --target rlab-agent RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the static aarch64 rlab-agent failed (${rc})")
endif()
