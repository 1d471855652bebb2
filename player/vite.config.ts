import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  // Relative asset URLs let the built page be served from any path (the origin's HTTP port or a static server).
  base: './',
  worker: { format: 'es' },
  build: {
    outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2000,
    // Two pages: the player (/) and the controller playground (/playground, served as playground.html).
    rollupOptions: { input: { main: fileURLToPath(new URL('index.html', import.meta.url)), playground: fileURLToPath(new URL('playground.html', import.meta.url)) } },
  },
});
