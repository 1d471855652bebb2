import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/** Hands Rollup dash.js's own source map with its minified bundle, so the player's maps lead from a frame of a page
 *  error's stack (a bench run's page-errors.txt) to dash.js's sources rather than to dash.all.min.js. */
function dashSourceMaps(): Plugin {
  return {
    name: 'dash-source-maps',
    load(id) {
      if (!/[\\/]node_modules[\\/]dashjs[\\/].*\.js$/.test(id) || !existsSync(`${id}.map`)) return null;
      return { code: readFileSync(id, 'utf8'), map: readFileSync(`${id}.map`, 'utf8') };
    },
  };
}

export default defineConfig({
  // Relative asset URLs let the built page be served from any path (the origin's HTTP port or a static server).
  base: './',
  worker: { format: 'es' },
  plugins: [dashSourceMaps()],
  build: {
    outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2000,
    // Maps beside the bundles (not referenced from them): a minified stack frame maps back to its source offline.
    sourcemap: 'hidden',
    // Two pages: the player (/) and the controller playground (/playground, served as playground.html).
    rollupOptions: { input: { main: fileURLToPath(new URL('index.html', import.meta.url)), playground: fileURLToPath(new URL('playground.html', import.meta.url)) } },
  },
});
