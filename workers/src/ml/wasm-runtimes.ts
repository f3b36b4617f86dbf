/**
 * The two WebAssembly runtimes the trainers use, loaded once per process and only when a model is
 * trained (a workers process that never trains never pays for them):
 * - TensorFlow.js on its WebAssembly backend (`@tensorflow/tfjs-backend-wasm`, whose .wasm files ship
 *   inside the npm package: nothing is downloaded; `@tensorflow/tfjs-node` would download a native
 *   binary at install and is not used). The wasm backend runs single-threaded in Node, so its results
 *   do not depend on thread scheduling.
 * - XGBoost compiled to WebAssembly (`ml-xgboost`, its xgboost.wasm inside the package). Its loader
 *   first tries `WebAssembly.instantiateStreaming(fetch(path))`, which Node's fetch cannot do for a
 *   file path, logs the failure and falls back to reading the file; `instantiateStreaming` is hidden
 *   while the module starts so it goes straight to the fallback, without the noise.
 */
import { createRequire } from 'node:module';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';

export type Tf = typeof tf;

/** The constructor ml-xgboost resolves to (its own API, untyped by the package). */
export interface XGBoostBooster {
  train(x: number[][], y: number[]): void;
  predict(x: number[][]): number[];
  toJSON(): { name: string; model: number[]; options: Record<string, unknown> };
  free(): void;
}
export interface XGBoostClass {
  new (options: Record<string, unknown>): XGBoostBooster;
  load(model: { name: string; model: number[]; options: Record<string, unknown> }): XGBoostBooster;
}

/**
 * Both runtimes are Emscripten builds whose Node glue adds `process.on('uncaughtException', ex => {
 * throw ex })` (tfjs also `unhandledRejection`) when the module starts: from then on any stray error in
 * the process, however harmless, ends it from inside a listener, past the process's own handling (a
 * test runner's, the services' logging). The listeners a runtime's start added are removed again.
 */
async function withoutProcessListeners<T>(start: () => Promise<T>): Promise<T> {
  const uncaught = new Set(process.listeners('uncaughtException'));
  const rejection = new Set(process.listeners('unhandledRejection'));
  try {
    return await start();
  } finally {
    for (const l of process.listeners('uncaughtException')) if (!uncaught.has(l)) process.removeListener('uncaughtException', l);
    for (const l of process.listeners('unhandledRejection')) if (!rejection.has(l)) process.removeListener('unhandledRejection', l);
  }
}

let tfReady: Promise<Tf> | undefined;
let xgbReady: Promise<XGBoostClass> | undefined;

export function tensorflow(): Promise<Tf> {
  tfReady ??= withoutProcessListeners(async () => {
    await tf.setBackend('wasm');
    await tf.ready();
    if (tf.getBackend() !== 'wasm') throw new Error(`TensorFlow.js runs on ${tf.getBackend()}, not its WebAssembly backend`);
    return tf;
  });
  return tfReady;
}

export function xgboost(): Promise<XGBoostClass> {
  xgbReady ??= withoutProcessListeners(() => {
    const require = createRequire(import.meta.url);
    const wasm = (globalThis as unknown as { WebAssembly: { instantiateStreaming?: unknown } }).WebAssembly;
    const streaming = wasm.instantiateStreaming;
    wasm.instantiateStreaming = undefined;
    try {
      return require('ml-xgboost') as Promise<XGBoostClass>;
    } finally {
      wasm.instantiateStreaming = streaming;
    }
  });
  return xgbReady;
}
