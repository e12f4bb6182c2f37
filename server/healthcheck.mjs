// The image's HEALTHCHECK (Dockerfile, docs/deploy.md "Health checks"): exits 0 when the server in
// this container is ready, 1 otherwise. Either tier listens on PORT in the image; readiness is
// GET /readyz answering 2xx (the database reachable, migrations current, and for the console its
// platform reachable).
const base = `http://127.0.0.1:${process.env.PORT || 3000}`;

/** The status of GET path, or 0 when nothing answers within 4 s. */
async function status(path) {
  try {
    const response = await fetch(base + path, { redirect: "manual", signal: AbortSignal.timeout(4000) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return 0;
  }
}

const answer = await status("/readyz");
process.exit(answer >= 200 && answer < 300 ? 0 : 1);
