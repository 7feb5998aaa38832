# docs/decks.md must contain exactly what `jacobi3d --deck-reference` prints between its
# markers, so the deck reference cannot drift from the keys the parser accepts.
#   cmake -DPROGRAM=<jacobi3d> -DDOC=<docs/decks.md> -P docs_check_deck_reference.cmake
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND ${PROGRAM} --deck-reference RESULT_VARIABLE rc OUTPUT_VARIABLE printed)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "jacobi3d --deck-reference failed (${rc})")
endif()
file(READ ${DOC} doc)
string(FIND "${doc}" "<!-- jacobi3d-deck-reference:begin -->\n" begin)
string(FIND "${doc}" "<!-- jacobi3d-deck-reference:end -->" end)
if(begin EQUAL -1 OR end EQUAL -1)
  message(FATAL_ERROR "${DOC}: the deck reference markers are missing")
endif()
string(LENGTH "<!-- jacobi3d-deck-reference:begin -->\n" skip)
math(EXPR begin "${begin} + ${skip}")
math(EXPR length "${end} - ${begin}")
string(SUBSTRING "${doc}" ${begin} ${length} documented)
if(NOT documented STREQUAL printed)
  message(FATAL_ERROR "${DOC} differs from `jacobi3d --deck-reference`; regenerate the block "
                      "between the markers with its output")
endif()
