# Helpers of scankit's own build (included by the top-level CMakeLists.txt;
# nothing here is installed).

# sk_check_file_list(<list> <dir> <pattern> [<file>...])
#
# Fails the configure when <dir> holds a file matching <pattern> that is not
# among <file>... (the explicit list named <list>, which builds them), or
# when a listed file is missing. The glob is CONFIGURE_DEPENDS: every build
# looks again, so a new file that nobody listed stops the next build with
# this message instead of being left out without a word.
function(sk_check_file_list list dir pattern)
  set(recheck CONFIGURE_DEPENDS)
  if(CMAKE_SCRIPT_MODE_FILE) # cmake -P: there is no build to check again
    set(recheck "")
  endif()
  file(GLOB present ${recheck} RELATIVE "${dir}" "${dir}/${pattern}")
  list(FILTER present EXCLUDE REGEX "^\\.") # editor lock and swap files
  set(unlisted ${present})
  if(ARGN)
    list(REMOVE_ITEM unlisted ${ARGN})
  endif()
  set(absent "")
  foreach(f IN LISTS ARGN)
    if(NOT EXISTS "${dir}/${f}")
      list(APPEND absent "${f}")
    endif()
  endforeach()
  if(NOT unlisted AND NOT absent)
    return()
  endif()
  file(RELATIVE_PATH where "${PROJECT_SOURCE_DIR}" "${CMAKE_CURRENT_LIST_FILE}")
  file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${dir}")
  set(msg "${list} in ${where} must name every ${rel}/${pattern}, one a line.")
  foreach(f IN LISTS unlisted)
    string(APPEND msg "\n  not listed: ${rel}/${f}")
  endforeach()
  foreach(f IN LISTS absent)
    string(APPEND msg "\n  listed, no such file: ${rel}/${f}")
  endforeach()
  message(FATAL_ERROR "${msg}")
endfunction()

# sk_use_project_flags(<dir>)
#
# Links scankit_warnings and scankit_sanitize (PRIVATE) into every target
# that <dir> and the directories under it build. Called once, after every
# directory is configured, so that a new program or test gets the project's
# flags without a line of its own; a parent project's targets (scankit as
# a subproject) are never in these directories and never get them.
function(sk_use_project_flags dir)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
      # BUILD_INTERFACE: not part of the installed package
      target_link_libraries(${t} PRIVATE $<BUILD_INTERFACE:scankit_warnings>
                                         $<BUILD_INTERFACE:scankit_sanitize>)
    endif()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    sk_use_project_flags("${sub}")
  endforeach()
endfunction()

# sk_checked_sources(<out> <list> <dir> <pattern>)
#
# sk_check_file_list on the file names in the list variable <list>, then
# <out> = those names with <dir>/ in front (the paths to build).
function(sk_checked_sources out list dir pattern)
  sk_check_file_list(${list} "${dir}" "${pattern}" ${${list}})
  list(TRANSFORM ${list} PREPEND "${dir}/" OUTPUT_VARIABLE paths)
  set(${out} ${paths} PARENT_SCOPE)
endfunction()
