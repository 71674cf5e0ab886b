# Writes the header OUT defining TILE_GIT_COMMIT: the checkout SRC's commit,
# with "-dirty-" and a hash of the uncommitted changes to tracked files when
# there are any (the runtime's caches key on it: two dirty builds of one
# commit must not share compiled kernels), or "unknown" outside a git
# checkout. Runs at every build (so it follows new commits) and rewrites the
# header only when the text changes (so nothing rebuilds otherwise).
execute_process(
  COMMAND git -C "${SRC}" describe --always --dirty --abbrev=12
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
elseif(commit MATCHES "-dirty$")
  execute_process(
    COMMAND git -C "${SRC}" diff HEAD
    COMMAND git hash-object --stdin
    OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  string(SUBSTRING "${changes}" 0 12 changes)
  set(commit "${commit}-${changes}")
endif()
set(text "#define TILE_GIT_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
