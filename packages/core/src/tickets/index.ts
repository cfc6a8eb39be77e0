export * from './ticket.js';
export * from './ticket-errors.js';
export * from './ticket-repository.js';
