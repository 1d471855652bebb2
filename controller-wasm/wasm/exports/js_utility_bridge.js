// Emscripten JS library: the import behind pccw_js_utility (controller_exports.c). The TypeScript wrapper
// passes `pccwUtility(handle, miStatsPtr)` in the module's options; it looks up the controller's function,
// calls it, and turns a throw or a non-number into NaN, which the C side counts as an error.
mergeInto(LibraryManager.library, {
  pccw_js_utility: function (handle, miStatsPtr) {
    var dispatch = Module['pccwUtility'];
    return typeof dispatch === 'function' ? dispatch(handle, miStatsPtr) : NaN;
  },
});
