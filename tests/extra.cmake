# Checks beyond the Criterion suites (included by tests/CMakeLists.txt).
#
#   oclgrind_scan_kernels                every scan kernel under Oclgrind's race,
#                                        uninitialised-value and API checks
#   oclgrind_sort_kernels_gpu, _gpu_volatile, _cpu
#                                        every radix sort kernel, the same way
#                                        (run.sh --sort-kernels's three passes)
#   oclgrind_check_catches_planted_race  the same check fails on a planted race
#   oclgrind_compact_kernels             every compaction kernel, the same way
#   oclgrind_segscan_poly_kernels        every segmented-scan and polynomial kernel
#                                        (og_segscan.c says which pass checks what)
#   oclgrind_merge_kernels               every merge kernel, both shapes, every check
#   oclgrind_histogram_kernels           every histogram kernel, both shapes, every check
#   oclgrind_search_kernels              every sorted-search kernel, both shapes, every check
#   oclgrind_bykey_kernels               the by-key kernel, both shapes, with the
#                                        segmented-scan and compaction kernels under it
#   oclgrind_topk_kernels                every top-k kernel, both shapes, every check
#   oclgrind_sortby_kernels              every comparator-sort and sort-by-fields
#                                        kernel, every check (og_sortby.c says where)
#   install_package_builds_a_consumer    cmake --install, then a separate project
#                                        builds against it (CMake and pkg-config),
#                                        and one builds scankit as its subproject
#   valgrind_memcheck_every_program      every CLI under valgrind's memcheck
#                                        (tests/valgrind/valgrind.cmake)
#
# The Oclgrind tests are skipped (exit 77) when oclgrind is not installed,
# the valgrind test when valgrind is not.

# --- Oclgrind -------------------------------------------------------------------
# The Oclgrind drivers, one a line, in name order (the configure fails on
# one left out): each is a program of that name built on the one harness
# (og_harness.c), which checks against the CPU references (ref/*.c); the
# harness and the drivers set test hooks (primitives/sk_testing.h).
set(SKT_OG_DRIVERS
  og_bykey.c
  og_compact.c
  og_driver.c
  og_histogram.c
  og_merge.c
  og_search.c
  og_segscan.c
  og_segsort.c
  og_sort.c
  og_sortby.c
  og_topk.c
)
sk_check_file_list(SKT_OG_DRIVERS ${CMAKE_CURRENT_SOURCE_DIR}/oclgrind "og_*.c"
                   ${SKT_OG_DRIVERS} og_harness.c)
add_library(og_harness STATIC ${CMAKE_CURRENT_SOURCE_DIR}/oclgrind/og_harness.c
                              ${SKT_REF_SOURCES})
target_include_directories(og_harness PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/oclgrind
                                             ${PROJECT_SOURCE_DIR}/primitives)
target_link_libraries(og_harness PUBLIC scankit)
# the drivers set tuning parameters and read build counters: scankit.h's
# experimental section
target_compile_definitions(og_harness PUBLIC SCANKIT_EXPERIMENTAL=1)
if(SKT_LIBM)
  target_link_libraries(og_harness PUBLIC ${SKT_LIBM})
endif()
foreach(src IN LISTS SKT_OG_DRIVERS)
  get_filename_component(driver ${src} NAME_WE)
  add_executable(${driver} ${CMAKE_CURRENT_SOURCE_DIR}/oclgrind/${src})
  target_link_libraries(${driver} PRIVATE og_harness)
endforeach()
add_executable(og_planted_race ${CMAKE_CURRENT_SOURCE_DIR}/oclgrind/planted_race.c)
target_link_libraries(og_planted_race PRIVATE scankit)

set(SKT_OG_RUN ${CMAKE_CURRENT_SOURCE_DIR}/oclgrind/run.sh)
add_test(NAME oclgrind_scan_kernels
  COMMAND sh ${SKT_OG_RUN} --scan-kernels $<TARGET_FILE:og_driver>)
# the radix sort's three passes (run.sh --sort-kernels), a test each
foreach(pass IN ITEMS gpu gpu-volatile cpu)
  string(REPLACE "-" "_" name "oclgrind_sort_kernels_${pass}")
  add_test(NAME ${name}
    COMMAND sh ${SKT_OG_RUN} --sort-kernels=${pass} $<TARGET_FILE:og_sort>)
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
add_test(NAME oclgrind_check_catches_planted_race
  COMMAND sh ${SKT_OG_RUN} --self-test $<TARGET_FILE:og_planted_race>)
set_tests_properties(oclgrind_scan_kernels oclgrind_check_catches_planted_race
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME oclgrind_compact_kernels
  COMMAND sh ${SKT_OG_RUN} --scan-kernels $<TARGET_FILE:og_compact>)
set_tests_properties(oclgrind_compact_kernels
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME oclgrind_segscan_poly_kernels
  COMMAND sh ${SKT_OG_RUN} --scan-kernels $<TARGET_FILE:og_segscan>)
set_tests_properties(oclgrind_segscan_poly_kernels
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
add_test(NAME oclgrind_merge_kernels
  COMMAND sh ${SKT_OG_RUN} $<TARGET_FILE:og_merge>)
set_tests_properties(oclgrind_merge_kernels
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME oclgrind_histogram_kernels
  COMMAND sh ${SKT_OG_RUN} $<TARGET_FILE:og_histogram>)
set_tests_properties(oclgrind_histogram_kernels
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME oclgrind_search_kernels
  COMMAND sh ${SKT_OG_RUN} $<TARGET_FILE:og_search>)
set_tests_properties(oclgrind_search_kernels
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME oclgrind_bykey_kernels
  COMMAND sh ${SKT_OG_RUN} --scan-kernels $<TARGET_FILE:og_bykey>)
set_tests_properties(oclgrind_bykey_kernels
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME oclgrind_segsort_kernels
  COMMAND sh ${SKT_OG_RUN} --scan-kernels $<TARGET_FILE:og_segsort>)
set_tests_properties(oclgrind_segsort_kernels
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME oclgrind_topk_kernels
  COMMAND sh ${SKT_OG_RUN} $<TARGET_FILE:og_topk>)
set_tests_properties(oclgrind_topk_kernels
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME oclgrind_sortby_kernels
  COMMAND sh ${SKT_OG_RUN} $<TARGET_FILE:og_sortby>)
set_tests_properties(oclgrind_sortby_kernels
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
# Rough seconds of each (one process each, Oclgrind an interpreter): started
# first in a fresh clone (tests/CMakeLists.txt says why), they overlap the
# Criterion suites.
set_tests_properties(oclgrind_sort_kernels_gpu PROPERTIES COST 70)
set_tests_properties(oclgrind_sort_kernels_gpu_volatile PROPERTIES COST 45)
set_tests_properties(oclgrind_sort_kernels_cpu PROPERTIES COST 30)
set_tests_properties(oclgrind_compact_kernels PROPERTIES COST 30)
set_tests_properties(oclgrind_segscan_poly_kernels PROPERTIES COST 25)
set_tests_properties(oclgrind_scan_kernels PROPERTIES COST 15)
set_tests_properties(oclgrind_merge_kernels PROPERTIES COST 15)
set_tests_properties(oclgrind_histogram_kernels PROPERTIES COST 15)

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
