import preact from '@preact/preset-vite'
import { defineConfig } from 'vite'

/**
 * The dashboard compiles to static files in dist/, which the Kassa server serves under /dashboard
 * (src/http/dashboard.ts). Nothing is inlined into index.html: its Content-Security-Policy allows
 * scripts and styles from its own origin only, so every script and style is a file of its own.
 */
export default defineConfig({
  base: '/dashboard/',
  plugins: [preact({ prerender: { enabled: false } })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    // Every browser the dashboard supports has <link rel="modulepreload">: no polyfill script.
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
})
