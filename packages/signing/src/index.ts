export * from './pdfkit-contract-renderer.js';
export * from './signing-providers.js';
export * from './signing.module.js';
export * from './simulator-signing-provider.js';
export * from './zapsign-signing-provider.js';
