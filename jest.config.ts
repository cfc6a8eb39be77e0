/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true },
    },
    module: { type: 'es6' },
  },
];

const config: Config = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  // TypeScript first: a stray compiled .js beside a source must never shadow it.
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: { '^.+\\.ts$': swc as never },
  moduleNameMapper: {
    '^@carteiro/([a-z-]+)/testing$': '<rootDir>/packages/$1/src/testing/index.ts',
    '^@carteiro/core/webhook-signature$': '<rootDir>/packages/core/src/webhooks/webhook-signature.ts',
    '^@carteiro/([a-z-]+)$': ['<rootDir>/packages/$1/src/index.ts', '<rootDir>/apps/$1/src/index.ts'],
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/{packages,apps}/*/src/**/*.test.ts'],
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
  testTimeout: 30_000,
  // Most suites wait on PostgreSQL and child processes, not on a core: two workers halve the wall time on 2 cores.
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
export default config;
