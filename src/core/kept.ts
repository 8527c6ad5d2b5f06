/**
 * A Map and a Set that keep at most so many entries, the oldest dropped: what the hub remembers
 * of a stream (runs' lineages, lists an app was sent, cached reports, a device's cards) stays
 * bounded however long it runs. "Oldest" is the one set (or added) longest ago: setting a key
 * again makes it the newest, so what is used keeps its place.
 */
export class KeptMap<K, V> extends Map<K, V> {
  constructor(readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.has(key)) this.delete(key);
    super.set(key, value);
    if (this.size > this.max) this.delete(this.keys().next().value as K);
    return this;
  }
}

export class KeptSet<T> extends Set<T> {
  constructor(readonly max: number) {
    super();
  }

  override add(value: T): this {
    if (this.has(value)) this.delete(value);
    super.add(value);
    if (this.size > this.max) this.delete(this.values().next().value as T);
    return this;
  }
}
