# Writes the CMake package files and the pkg-config file into an install prefix.
# Run by scripts/install.sh:
#   cmake -DPREFIX=<abs prefix> -DOXSPARSE_VERSION=0.1.0 -DSIZEOF_VOID_P=8 -P cmake/stage.cmake
cmake_minimum_required(VERSION 3.18)
include(CMakePackageConfigHelpers)

foreach(var PREFIX OXSPARSE_VERSION SIZEOF_VOID_P)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "stage.cmake: -D${var}=... is required")
  endif()
endforeach()
string(REGEX MATCH "^[0-9]+" OXSPARSE_VERSION_MAJOR "${OXSPARSE_VERSION}")

# Relative on purpose: configure_package_config_file turns them into paths
# relative to the config file; absolute ones end up with the prefix twice.
set(OXSPARSE_INCLUDE_DIR include)
set(OXSPARSE_LIB_DIR lib)
set(cmake_dir "${PREFIX}/lib/cmake/oxsparse")

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/oxsparseConfig.cmake.in"
  "${cmake_dir}/oxsparseConfig.cmake"
  INSTALL_DESTINATION lib/cmake/oxsparse
  INSTALL_PREFIX "${PREFIX}"
  PATH_VARS OXSPARSE_INCLUDE_DIR OXSPARSE_LIB_DIR)

# Script mode has no target architecture; without this the version file would
# accept a 32-bit consumer.
set(CMAKE_SIZEOF_VOID_P ${SIZEOF_VOID_P})
write_basic_package_version_file(
  "${cmake_dir}/oxsparseConfigVersion.cmake"
  VERSION ${OXSPARSE_VERSION}
  COMPATIBILITY SameMajorVersion)

configure_file("${CMAKE_CURRENT_LIST_DIR}/oxsparse.pc.in"
               "${PREFIX}/lib/pkgconfig/oxsparse.pc" @ONLY)
# The cuSPARSE face, when install.sh installed it (docs/design/dropin.md).
if(EXISTS "${PREFIX}/lib/oxsparse/libcusparse.so.12")
  configure_file("${CMAKE_CURRENT_LIST_DIR}/oxsparse-cusparse.pc.in"
                 "${PREFIX}/lib/pkgconfig/oxsparse-cusparse.pc" @ONLY)
endif()
