# Writes OUTPUT: a header defining PCC_CONTROLLER_BUILD_ID, the id of the controller library's sources this build
# was made from. scripts/build-id.ts computes the same id from the same files (the origin writes it into each
# recording; pcc-replay --check compares): SHA-256 over one line "PATH SHA256\n" per .c/.h file of src/,
# src/algorithms/, include/pcc/ and wasm/event_batch.[ch], in byte order of PATH (relative to the package), first
# 12 hex digits.  Usage: cmake -DPACKAGE_DIR=DIR -DOUTPUT=FILE -P controller_build_id.cmake
file(GLOB files RELATIVE ${PACKAGE_DIR}
  ${PACKAGE_DIR}/src/*.c ${PACKAGE_DIR}/src/*.h
  ${PACKAGE_DIR}/src/algorithms/*.c ${PACKAGE_DIR}/src/algorithms/*.h
  ${PACKAGE_DIR}/include/pcc/*.c ${PACKAGE_DIR}/include/pcc/*.h)
list(APPEND files wasm/event_batch.c wasm/event_batch.h)
list(SORT files)
set(manifest "")
foreach(f IN LISTS files)
  file(SHA256 ${PACKAGE_DIR}/${f} digest)
  string(APPEND manifest "${f} ${digest}\n")
endforeach()
string(SHA256 id "${manifest}")
string(SUBSTRING ${id} 0 12 id)
file(WRITE ${OUTPUT} "#define PCC_CONTROLLER_BUILD_ID \"${id}\"\n")
