# valgrind's memcheck on every command-line program (included by
# tests/extra.cmake): tests/valgrind/run.sh runs each on a small input and
# fails on any memcheck error or definitely lost block; skipped (exit 77)
# when valgrind is not installed. Not in a SCANKIT_SANITIZE build: valgrind
# cannot run AddressSanitizer programs (scripts/test.sh runs it in the normal
# pass).
if(SCANKIT_SANITIZE OR NOT TARGET scan)
  return()
endif()
add_test(NAME valgrind_memcheck_every_program
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run.sh ${PROJECT_BINARY_DIR}/apps
          ${CMAKE_CURRENT_BINARY_DIR}/valgrind-check)
# COST: its rough seconds, so that it starts first in a fresh clone
# (tests/CMakeLists.txt says why).
set_tests_properties(valgrind_memcheck_every_program PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 900 COST 35)
