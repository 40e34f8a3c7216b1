# ctest: README.md's ```cpp block must be examples/readme_example.cpp from its first #include.
# Run as: cmake -DREADME=... -DEXAMPLE=... -P check_readme.cmake
file(READ "${README}" readme)
file(READ "${EXAMPLE}" example)
string(FIND "${example}" "#include" start)
string(SUBSTRING "${example}" ${start} -1 code)
string(FIND "${readme}" "```cpp\n${code}```" found)
if(found EQUAL -1)
  message(FATAL_ERROR "README.md does not show examples/readme_example.cpp: copy the file, from "
                      "its first #include to its end, into README.md's ```cpp block")
endif()
message(STATUS "README.md shows examples/readme_example.cpp")
