import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from './config.js';

describe('the service settings from the environment', () => {
  it('keeps finished campaigns\' recipients forever unless CAMPAIGN_MESSAGE_RETENTION_DAYS is a positive number of days', () => {
    expect(loadConfig({}).campaignMessageRetentionDays).toBeNull();
    expect(loadConfig({ CAMPAIGN_MESSAGE_RETENTION_DAYS: '' }).campaignMessageRetentionDays).toBeNull();
    expect(loadConfig({ CAMPAIGN_MESSAGE_RETENTION_DAYS: '90' }).campaignMessageRetentionDays).toBe(90);
    expect(loadConfig({ CAMPAIGN_MESSAGE_RETENTION_DAYS: '0.5' }).campaignMessageRetentionDays).toBe(0.5);
    for (const bad of ['0', '-3', 'ninety']) {
      expect(() => loadConfig({ CAMPAIGN_MESSAGE_RETENTION_DAYS: bad })).toThrow(new ConfigError(`CAMPAIGN_MESSAGE_RETENTION_DAYS=${bad} is not valid`));
    }
  });

  it('refuses a role other than all, api or worker, and an invalid number, with the variable named', () => {
    expect(loadConfig({ ROLE: 'worker' }).role).toBe('worker');
    expect(() => loadConfig({ ROLE: 'batch' })).toThrow(new ConfigError('ROLE=batch must be all, api or worker'));
    expect(() => loadConfig({ DB_POOL_SIZE: '0' })).toThrow(new ConfigError('DB_POOL_SIZE=0 is not valid'));
  });

  it('pipelines inbound groups only when INBOUND_HOLD_MS is a whole number of milliseconds above 0 (at most 1000)', () => {
    expect(loadConfig({}).inboundHoldMs).toBe(0);
    expect(loadConfig({ INBOUND_HOLD_MS: '2' }).inboundHoldMs).toBe(2);
    for (const bad of ['-1', '1.5', '1001', 'soon']) {
      expect(() => loadConfig({ INBOUND_HOLD_MS: bad })).toThrow(new ConfigError(`INBOUND_HOLD_MS=${bad} is not valid`));
    }
  });
});
