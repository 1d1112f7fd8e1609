import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';
import { VitePWA } from 'vite-plugin-pwa';

const backend = process.env.KARDAN_API || 'http://127.0.0.1:8080';
const proxy = { '/v1': backend, '/uploads': backend, '/healthz': backend };

export default defineConfig({
  plugins: [
    preact(),
    VitePWA({
      // The app registers /sw.js itself after load (src/main.tsx), so workbox-window stays out of the initial bundle.
      injectRegister: false,
      registerType: 'autoUpdate',
      includeAssets: ['favicon.svg', 'images/logo.png', 'icons/apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'کاردان – متخصص و کسب‌وکار محلی',
        short_name: 'کاردان',
        description: 'پیدا کردن متخصص و کسب‌وکار محلی مطمئن در شهر شما، با امتیاز و نظر مشتریان.',
        lang: 'fa',
        dir: 'rtl',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        background_color: '#f5f7f7',
        theme_color: '#0b6e69',
        categories: ['business', 'lifestyle', 'navigation'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        shortcuts: [
          { name: 'جستجو', short_name: 'جستجو', url: '/search/iran', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
          { name: 'نقشه', short_name: 'نقشه', url: '/map', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/v1\//, /^\/p\/[0-9]+$/, /^\/setup\//, /^\/uploads\//, /^\/healthz/, /^\/sitemap[\w-]*\.xml$/, /^\/robots\.txt$/],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
        runtimeCaching: [
          {
            // Public reference data and other GETs: answer from cache at once, refresh in the background.
            // Requests carrying an Authorization header are never cached.
            urlPattern: ({ url, request, sameOrigin }) =>
              sameOrigin && url.pathname.startsWith('/v1/') && request.method === 'GET' && !request.headers.has('Authorization'),
            handler: 'StaleWhileRevalidate',
            method: 'GET',
            options: {
              cacheName: 'kardan-api',
              expiration: { maxEntries: 200, maxAgeSeconds: 7 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/uploads/'),
            handler: 'CacheFirst',
            options: {
              cacheName: 'kardan-images',
              expiration: { maxEntries: 400, maxAgeSeconds: 60 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            // Map tiles and other images from elsewhere.
            urlPattern: ({ request, sameOrigin }) => !sameOrigin && request.destination === 'image',
            handler: 'CacheFirst',
            options: {
              cacheName: 'kardan-tiles',
              expiration: { maxEntries: 500, maxAgeSeconds: 30 * 24 * 3600 },
              cacheableResponse: { statuses: [0, 200] },
            },
          },
        ],
      },
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    assetsInlineLimit: 2048,
    // The server reads it to preload a page's own chunk with the page (api/web.go).
    manifest: true,
    rollupOptions: {
      // The English texts are an entry too: an English page loads them as a script before the
      // app's (src/i18n/texts.en.ts).
      input: { index: 'index.html', textsEn: 'src/i18n/texts.en.ts' },
    },
  },
  server: { proxy },
  preview: { proxy },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
