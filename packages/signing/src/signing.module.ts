import { Clock, ContractRenderer, SigningProviders } from '@carteiro/core';
import { ContainerModule } from 'inversify';
import { PdfkitContractRenderer } from './pdfkit-contract-renderer.js';
import { ConfiguredSigningProviders, type SigningConfig } from './signing-providers.js';
import { SimulatorSigningProvider } from './simulator-signing-provider.js';
import { ZapSignSigningProvider } from './zapsign-signing-provider.js';

/** Binds `ContractRenderer` (pdfkit) and `SigningProviders` (the simulator, plus ZapSign when configured). */
export function signingModule(config: SigningConfig): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(ContractRenderer).toConstantValue(new PdfkitContractRenderer());
    bind(SigningProviders)
      .toResolvedValue(
        (clock: Clock) => new ConfiguredSigningProviders(new SimulatorSigningProvider(clock), config.zapsign ? new ZapSignSigningProvider(config.zapsign) : null),
        [Clock],
      )
      .inSingletonScope();
  });
}
