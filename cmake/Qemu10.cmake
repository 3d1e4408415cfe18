# QEMU 10 user mode, the second executor beside the system's QEMU 7.2 (Debian bookworm-backports qemu-user 1:10.0.x,
# unpacked into the cross cache by ci/fetch-qemu10, which ci/setup runs). docs/qemu10.md.
#
# SHAKEDOWN_QEMU10_DIR: the folder with its qemu-<arch> binaries (default <cross cache>/qemu10/usr/bin).
# shakedown_find_qemu10(<arch> <var>) sets <var> to qemu-<arch> of QEMU 10, or to "" when it is not there: the
# entries that need it are then not registered, which the coverage gate (ci/verify) reports as not run.
set(_qemu10_cache "$ENV{HOME}/.cache/shakedown/cross")
if(SHAKEDOWN_CROSS_CACHE)
  set(_qemu10_cache "${SHAKEDOWN_CROSS_CACHE}")
elseif(DEFINED ENV{SHAKEDOWN_CROSS_CACHE})
  set(_qemu10_cache "$ENV{SHAKEDOWN_CROSS_CACHE}")
endif()
if(NOT SHAKEDOWN_QEMU10_DIR)
  set(SHAKEDOWN_QEMU10_DIR "${_qemu10_cache}/qemu10/usr/bin")
endif()
set(SHAKEDOWN_QEMU10_DIR "${SHAKEDOWN_QEMU10_DIR}" CACHE PATH "folder with QEMU 10's qemu-<arch> (ci/fetch-qemu10)")
# Bochs' kit (ci/bochs/fetch) lives in the same cache.
if(NOT SHAKEDOWN_BOCHS_KIT)
  set(SHAKEDOWN_BOCHS_KIT "${_qemu10_cache}/bochs")
endif()
set(SHAKEDOWN_BOCHS_KIT "${SHAKEDOWN_BOCHS_KIT}" CACHE PATH "Bochs and its guest (ci/bochs/fetch)")
# And the third-party kits that judge the models (ci/fetch-third-party, docs/third-party.md).
if(NOT SHAKEDOWN_THIRD_PARTY_DIR)
  set(SHAKEDOWN_THIRD_PARTY_DIR "${_qemu10_cache}/third-party")
endif()
set(SHAKEDOWN_THIRD_PARTY_DIR "${SHAKEDOWN_THIRD_PARTY_DIR}" CACHE PATH "third-party kits (ci/fetch-third-party)")

function(shakedown_find_qemu10 arch var)
  set(_q "${SHAKEDOWN_QEMU10_DIR}/qemu-${arch}")
  if(NOT EXISTS "${_q}")
    message(STATUS "shakedown: no QEMU 10 qemu-${arch} in ${SHAKEDOWN_QEMU10_DIR} (ci/fetch-qemu10): its entries are "
                   "not registered")
    set(${var} "" PARENT_SCOPE)
    return()
  endif()
  # The version it reports, not the folder's name: an older QEMU here would lack what these entries test.
  execute_process(COMMAND "${_q}" --version OUTPUT_VARIABLE _version RESULT_VARIABLE _rc ERROR_QUIET)
  if(NOT _rc EQUAL 0 OR NOT _version MATCHES "version 10\\.")
    message(FATAL_ERROR "shakedown: ${_q} is not QEMU 10 (it says: ${_version}); fix SHAKEDOWN_QEMU10_DIR")
  endif()
  set(${var} "${_q}" PARENT_SCOPE)
endfunction()
