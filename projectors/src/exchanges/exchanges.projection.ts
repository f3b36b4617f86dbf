/**
 * exchange-connections, mirror-orders (domain/src/exchanges/exchange-view.ts) and account-settings
 * (domain/src/settings/account-settings-view.ts): the Exchange API Integration and Settings screens'
 * read models. None holds a secret: the events they fold hold a reference and the key's last four.
 */
import {
  EXCHANGE_CONNECTIONS_PROJECTION,
  MIRROR_ORDERS_PROJECTION,
  evolveExchangeConnectionView,
  evolveMirrorOrderView,
  exchangeConnectionDocumentIds,
  mirrorOrderDocumentIds,
  type ExchangeConnectionView,
  type MirrorOrderView,
} from '@papertrade/domain/exchanges/exchange-view';
import { ACCOUNT_SETTINGS_PROJECTION, accountSettingsDocumentIds, evolveAccountSettingsView, type AccountSettingsView } from '@papertrade/domain/settings/account-settings-view';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';

export const exchangeConnectionsProjection: ProjectionDefinition<ExchangeConnectionView> = {
  name: EXCHANGE_CONNECTIONS_PROJECTION,
  documentIds: (event) => exchangeConnectionDocumentIds(event),
  evolve: (doc, event) => evolveExchangeConnectionView(doc, event),
};

export const mirrorOrdersProjection: ProjectionDefinition<MirrorOrderView> = {
  name: MIRROR_ORDERS_PROJECTION,
  documentIds: (event) => mirrorOrderDocumentIds(event),
  evolve: (doc, event) => evolveMirrorOrderView(doc, event),
};

export const accountSettingsProjection: ProjectionDefinition<AccountSettingsView> = {
  name: ACCOUNT_SETTINGS_PROJECTION,
  documentIds: (event) => accountSettingsDocumentIds(event),
  evolve: (doc, event) => evolveAccountSettingsView(doc, event),
};
