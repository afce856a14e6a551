const { register } = await import('tsx/esm/api');
register();
const mods = process.argv.slice(2);
for (const m of mods) { const t = performance.now(); await import(new URL('../' + m, import.meta.url).href); console.log(m, (performance.now() - t).toFixed(0)); }
