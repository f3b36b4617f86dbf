/**
 * The WebAssembly runtimes leave the process's error handling alone: their Emscripten glue adds
 * listeners that rethrow any uncaught exception or rejection (which ended a whole test run on one stray
 * error); wasm-runtimes.ts removes what their start added. Run alone, before anything else loads them.
 */
import { expect } from 'chai';
import { tensorflow, xgboost } from './wasm-runtimes';

describe('WebAssembly runtimes and process listeners', function () {
  this.timeout(60_000);
  it('starting TensorFlow.js (wasm) and XGBoost adds no uncaughtException or unhandledRejection listener', async function () {
    const before = [process.listeners('uncaughtException'), process.listeners('unhandledRejection')];
    await tensorflow();
    await xgboost();
    expect(process.listeners('uncaughtException')).to.deep.equal(before[0]);
    expect(process.listeners('unhandledRejection')).to.deep.equal(before[1]);
  });
});
