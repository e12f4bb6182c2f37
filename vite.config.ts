import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  ssr: {
    // PGlite ships its own wasm/data files next to its JS: load it from node_modules at runtime.
    external: ["@electric-sql/pglite", "pg", "nodemailer"],
  },
  server: { port: Number(process.env.PORT ?? 3000) },
});
