/** Static assets imported as text (Vite's `?raw`; scripts/build.mjs does the same for esbuild). */
declare module "*?raw" {
  const text: string;
  export default text;
}
