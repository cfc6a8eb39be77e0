// The HTTP benchmark's baseline: Express 5 with nothing but one JSON route (same framework and
// Node as the service, no middleware, no database). PORT and HOST come from the environment.
import express from 'express';

const app = express();
app.get('/', (_req, res) => {
  res.json({ hello: 'world' });
});
const server = app.listen(Number(process.env.PORT ?? 3001), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
