/**
 * One call per key for the life of the page. React StrictMode runs a component's effects twice
 * (mount, unmount, mount) and a remount of /payment-success would run them again; the payment
 * session must still be reported once, so every effect run for the same session id shares the first
 * run's promise instead of calling the server again. A reload starts a new page, and reports again:
 * the server appends nothing for a repeated session.
 */
export function oncePerKey<T>(call: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const started = new Map<string, Promise<T>>();
  return (key) => {
    let promise = started.get(key);
    if (!promise) {
      promise = call(key);
      started.set(key, promise);
    }
    return promise;
  };
}
