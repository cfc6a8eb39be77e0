export * from './fake-zapsign-server.js';
