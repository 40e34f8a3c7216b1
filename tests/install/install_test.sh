#!/usr/bin/env bash
# ctest Install.ReadmeExampleAgainstInstalledTree (tests/install/CMakeLists.txt passes the
# arguments): installs the build tree into a temporary prefix with `cmake --install`, as a
# user would, and checks that
#   - the prefix holds tide's headers, libtide.so, the CMake package, tide.pc and (when built)
#     bin/tide, and nothing else: no tests, benchmarks or gtest;
#   - the installed libtide.so's RUNPATH names nothing in the build tree, neither it nor the
#     build tree's (which python/ installs as it is) has an empty entry, and bin/tide runs;
#   - README.md's example (examples/readme_example.cpp) builds with find_package(tide) and
#     tide::tide (consumer/), and with `g++ $(pkg-config --cflags --libs tide)`, both with
#     the build's own compiler, loads libtide.so from the prefix and prints what README.md says.
# Each step prints one line; a failing step prints its command's output and what went wrong.
# The temporary directory is removed on exit, pass or fail.
set -euo pipefail

while (($# > 0)); do
  case "$1" in
    --build-dir) build_dir=$2 ;;
    --built-library) built_library=$2 ;;
    --cmake) cmake=$2 ;;
    --generator) generator=$2 ;;
    --make-program) make_program=$2 ;;
    --cxx) cxx=$2 ;;
    --pkg-config) pkg_config=$2 ;;
    --example) example=$2 ;;
    --consumer) consumer=$2 ;;
    --headers) headers=$2 ;;
    --version) version=$2 ;;
    --config) config=$2 ;;
    --libdir) libdir=$2 ;;
    --includedir) includedir=$2 ;;
    --bindir) bindir=$2 ;;
    --cli) cli=$2 ;;
    *) echo "install_test.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift 2
done

fail() {
  echo "install test: FAILED: $*" >&2
  exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/tide-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
unset DESTDIR TIDE_SIM_DEVICES CUDA_VISIBLE_DEVICES

# step DESCRIPTION COMMAND...: runs COMMAND, its output kept in $work/log and shown on failure.
step() {
  local description=$1
  shift
  echo "==> $description"
  if ! "$@" >"$work/log" 2>&1; then
    cat "$work/log" >&2
    fail "$description: \`$*\` exited with an error (its output is above)"
  fi
}

# README.md's output: on the cpu, or on cuda:0 where the build has the CUDA backend and a GPU.
expected_cpu=$'tensor([[2.5000, 2.5000],\n        [4.5000, 4.5000]])\n9'
expected_gpu=$'tensor([[2.5000, 2.5000],\n        [4.5000, 4.5000]], device=\'cuda:0\')\n9'
check_example() {
  local how=$1 program=$2 output
  echo "==> run the example built with $how"
  output=$("$program" 2>&1) || fail "the example built with $how exited with an error:"$'\n'"$output"
  if [[ "$output" != "$expected_cpu" && "$output" != "$expected_gpu" ]]; then
    fail "the example built with $how printed"$'\n'"$output"$'\n'"instead of README.md's"$'\n'"$expected_cpu"
  fi
  local loaded
  loaded=$(ldd "$program" | awk '$1 ~ /^libtide\.so/ { print $3 }')
  [[ "$loaded" == "$prefix/$libdir/"* ]] ||
    fail "the example built with $how loads libtide.so from '$loaded', not from the prefix $prefix/$libdir"
}

step "cmake --install $build_dir --prefix <temporary prefix>" "$cmake" --install "$build_dir" --prefix "$prefix"

echo "==> check what was installed"
expected_files=$( (
  cd "$headers" && find tide -name '*.h' | sed "s|^|$includedir/|"
  echo "$libdir/libtide.so"
  echo "$libdir/libtide.so.0"
  echo "$libdir/libtide.so.$version"
  for file in tideConfig.cmake tideConfigVersion.cmake tideTargets.cmake "tideTargets-$config.cmake"; do
    echo "$libdir/cmake/tide/$file"
  done
  echo "$libdir/pkgconfig/tide.pc"
  [[ "$cli" == yes ]] && echo "$bindir/tide"
  true
) | sort)
installed_files=$(cd "$prefix" && find . -not -type d | sed 's|^\./||' | sort)
if [[ "$installed_files" != "$expected_files" ]]; then
  fail "the prefix does not hold exactly tide's files (< missing, > not expected):"$'\n'"$(
    diff <(echo "$expected_files") <(echo "$installed_files") | grep '^[<>]' || true)"
fi

echo "==> check libtide.so's RUNPATH"
runpath_of() { readelf -d "$1" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p'; }
runpath=$(runpath_of "$prefix/$libdir/libtide.so")
[[ "$runpath" != *"$build_dir"* ]] ||
  fail "the installed libtide.so's RUNPATH '$runpath' names the build tree $build_dir"
for library in "$prefix/$libdir/libtide.so" "$built_library"; do
  runpath=$(runpath_of "$library")
  [[ "$runpath" != :* && "$runpath" != *: && "$runpath" != *::* ]] ||
    fail "$library's RUNPATH '$runpath' has an empty entry, which the dynamic loader reads as the working directory"
done

if [[ "$cli" == yes ]]; then
  echo "==> run the installed tide --version"
  cli_version=$("$prefix/$bindir/tide" --version 2>&1) ||
    fail "$prefix/$bindir/tide --version exited with an error: $cli_version"
  [[ "$cli_version" == *"$version"* ]] ||
    fail "$prefix/$bindir/tide --version printed '$cli_version', not the version $version"
fi

# find_package(tide) through CMAKE_PREFIX_PATH, as a user's project does; the package registry
# is off so that only the prefix can serve it.
step "configure consumer/ with find_package(tide)" "$cmake" -S "$consumer" -B "$work/consumer" \
  -G "$generator" -DCMAKE_MAKE_PROGRAM="$make_program" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON -DTIDE_EXAMPLE_SOURCE="$example"
found_dir=$(sed -n 's/^tide_DIR:PATH=//p' "$work/consumer/CMakeCache.txt")
[[ "$found_dir" == "$prefix/$libdir/cmake/tide" ]] ||
  fail "find_package(tide) found '$found_dir', not the installed $prefix/$libdir/cmake/tide"
step "build consumer/" "$cmake" --build "$work/consumer"
check_example "find_package(tide)" "$work/consumer/readme_example"

command -v "$pkg_config" >/dev/null ||
  fail "no pkg-config program ('$pkg_config'): scripts/install-deps installs pkgconf"
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
echo "==> check pkg-config's view of tide.pc"
pc_prefix=$("$pkg_config" --variable=prefix tide) || fail "pkg-config does not find tide in $PKG_CONFIG_PATH"
[[ "$pc_prefix" == "$prefix" ]] || fail "tide.pc's prefix is '$pc_prefix', not the prefix it was installed to, $prefix"
pc_version=$("$pkg_config" --modversion tide)
[[ "$pc_version" == "$version" ]] || fail "pkg-config --modversion tide is '$pc_version', not $version"
read -r -a pc_flags <<<"$("$pkg_config" --cflags --libs tide)"
pc_libdir=$("$pkg_config" --variable=libdir tide)
step "build the example with $cxx -std=c++20 \$(pkg-config --cflags --libs tide)" \
  "$cxx" -std=c++20 "$example" -o "$work/pkg_config_example" "${pc_flags[@]}" -Wl,-rpath,"$pc_libdir"
check_example "pkg-config" "$work/pkg_config_example"

echo "install test: passed"
