/**
 * The check the dashboard's trade form runs before a BUY (issue 16 item 13): would the coin's
 * position pass the maximum position size? Composed here because it needs three features' reads
 * (the coin's price, the portfolio, the risk parameters) and features do not import each other; the
 * rule itself is paper-trading's (position-size.ts). The three are read fresh at the click, not from
 * the cache: a maximum changed a moment ago on Risk Management, or a trade just placed, counts. The
 * risk parameters are read only here, so the dashboard polls nothing new for it.
 */
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { priceQueryOptions } from '../features/market/api/get-price';
import { positionSizeWarning, type PositionSizeWarning } from '../features/paper-trading/position-size';
import { portfolioQueryOptions } from '../features/portfolio/api/get-portfolio';
import { riskParametersQueryOptions } from '../features/risk/api/get-risk-parameters';

export function usePositionSizeCheck(symbol: string): (amount: number) => Promise<PositionSizeWarning | null> {
  const queryClient = useQueryClient();
  return useCallback(
    async (amount: number) => {
      const [quote, portfolio, parameters] = await Promise.all([
        queryClient.fetchQuery({ ...priceQueryOptions(symbol), staleTime: 0 }),
        queryClient.fetchQuery({ ...portfolioQueryOptions(), staleTime: 0 }),
        queryClient.fetchQuery({ ...riskParametersQueryOptions(), staleTime: 0 }),
      ]);
      const held = portfolio.positions.find((p) => p.symbol === symbol)?.quantity ?? 0;
      return positionSizeWarning({ amount, price: quote.price, heldQuantity: held, totalValue: portfolio.totalValue, maxPositionPercent: parameters.maxPositionSize });
    },
    [queryClient, symbol],
  );
}
