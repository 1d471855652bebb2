/* Heap accounting for leak tests: bytes currently allocated by malloc inside the WASM module. */
#include <emscripten/emscripten.h>
#include <malloc.h>

EMSCRIPTEN_KEEPALIVE double pccw_heap_bytes_in_use(void) {
    struct mallinfo info = mallinfo();
    return (double)info.uordblks;
}
