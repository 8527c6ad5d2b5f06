/** The energy handlers: its options (prices, currency) and each operation as a call into the service. */
import { implement, type Operation } from '../../core/operation.js';
import type { OptionService } from '../../core/options.js';
import { energyContract } from './contract.js';
import type { EnergyService } from './service.js';

export function energyOperations(service: EnergyService, options: OptionService): Operation[] {
  return [
    ...options.register(energyContract.name, energyContract.options),
    ...implement(energyContract.operations, {
      getState: () => service.state(),
      getLiveReport: ({ query }) => service.live(query.zone),
      getReportDay: ({ query }) => service.report('day', query.date),
      getReportWeek: ({ query }) => service.report('week', query.isoWeek),
      getReportMonth: ({ query }) => service.report('month', query.yearMonth),
      getReportYear: ({ query }) => service.report('year', query.year),
      getReportsAvailable: () => service.available(),
      getCurrency: () => ({ currency: service.currency, symbol: service.symbol() }),
      getElectricityPriceType: () => service.priceType(),
      deleteReports: () => {
        service.deleteReports();
      },
    }),
  ];
}
