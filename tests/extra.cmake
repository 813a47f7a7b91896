# Checks beyond the Criterion suites (included by tests/CMakeLists.txt).
#
#   oclgrind_scan_kernels                every scan kernel under Oclgrind's race,
#                                        uninitialised-value and API checks
#   oclgrind_sort_kernels                every radix sort kernel, the same way
#   oclgrind_check_catches_planted_race  the same check fails on a planted race
#   oclgrind_compact_kernels             every compaction kernel, the same way
#   oclgrind_segscan_poly_kernels        every segmented-scan and polynomial kernel
#                                        (og_segscan.c says which pass checks what)
#   install_package_builds_a_consumer    cmake --install, then a separate project
#                                        builds against it (CMake and pkg-config),
#                                        and one builds scankit as its subproject
#   valgrind_memcheck_every_program      every CLI under valgrind's memcheck
#                                        (tests/valgrind/valgrind.cmake)
#
# The Oclgrind tests are skipped (exit 77) when oclgrind is not installed,
# the valgrind test when valgrind is not.

# --- Oclgrind -------------------------------------------------------------------
add_executable(og_driver ${CMAKE_CURRENT_SOURCE_DIR}/oclgrind/og_driver.c)
target_link_libraries(og_driver PRIVATE scankit)
add_executable(og_planted_race ${CMAKE_CURRENT_SOURCE_DIR}/oclgrind/planted_race.c)
target_link_libraries(og_planted_race PRIVATE scankit)
add_executable(og_sort ${CMAKE_CURRENT_SOURCE_DIR}/oclgrind/og_sort.c
                       ${CMAKE_CURRENT_SOURCE_DIR}/ref/ref_sort.c)
target_link_libraries(og_sort PRIVATE scankit)
add_executable(og_compact ${CMAKE_CURRENT_SOURCE_DIR}/oclgrind/og_compact.c
                          ${CMAKE_CURRENT_SOURCE_DIR}/ref/ref_compact.c)
target_link_libraries(og_compact PRIVATE scankit)
add_executable(og_segscan ${CMAKE_CURRENT_SOURCE_DIR}/oclgrind/og_segscan.c
                          ${CMAKE_CURRENT_SOURCE_DIR}/ref/ref_segscan.c
                          ${CMAKE_CURRENT_SOURCE_DIR}/ref/reference.c)
target_link_libraries(og_segscan PRIVATE scankit)
# the drivers set tuning parameters and read build counters: scankit.h's
# experimental section
foreach(og og_driver og_sort og_compact og_segscan)
  target_compile_definitions(${og} PRIVATE SCANKIT_EXPERIMENTAL=1)
endforeach()
# og_driver and og_sort set test hooks (primitives/sk_testing.h)
target_include_directories(og_driver PRIVATE ${PROJECT_SOURCE_DIR}/primitives)
target_include_directories(og_sort PRIVATE ${PROJECT_SOURCE_DIR}/primitives)
if(SKT_LIBM)
  target_link_libraries(og_segscan PRIVATE ${SKT_LIBM})
endif()

set(SKT_OG_RUN ${CMAKE_CURRENT_SOURCE_DIR}/oclgrind/run.sh)
add_test(NAME oclgrind_scan_kernels
  COMMAND sh ${SKT_OG_RUN} --scan-kernels $<TARGET_FILE:og_driver>)
add_test(NAME oclgrind_sort_kernels
  COMMAND sh ${SKT_OG_RUN} --sort-kernels $<TARGET_FILE:og_sort>)
add_test(NAME oclgrind_check_catches_planted_race
  COMMAND sh ${SKT_OG_RUN} --self-test $<TARGET_FILE:og_planted_race>)
set_tests_properties(oclgrind_scan_kernels oclgrind_sort_kernels
  oclgrind_check_catches_planted_race
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
add_test(NAME oclgrind_compact_kernels
  COMMAND sh ${SKT_OG_RUN} --scan-kernels $<TARGET_FILE:og_compact>)
set_tests_properties(oclgrind_compact_kernels
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME oclgrind_segscan_poly_kernels
  COMMAND sh ${SKT_OG_RUN} --scan-kernels $<TARGET_FILE:og_segscan>)
set_tests_properties(oclgrind_segscan_poly_kernels
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)

# --- install ----------------------------------------------------------------------
# Only where there are install rules (SCANKIT_INSTALL: off by default in a
# subproject).
if(SCANKIT_INSTALL)
  add_test(NAME install_package_builds_a_consumer
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/install/check.sh
            ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/install-check $<CONFIG>)
  set_tests_properties(install_package_builds_a_consumer PROPERTIES
    SKIP_RETURN_CODE 77 TIMEOUT 300
    ENVIRONMENT "CMAKE=${CMAKE_COMMAND};CC=${CMAKE_C_COMPILER}")
endif()

# --- valgrind ---------------------------------------------------------------------
include(${CMAKE_CURRENT_SOURCE_DIR}/valgrind/valgrind.cmake)
