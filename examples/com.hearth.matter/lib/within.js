'use strict';

// A wait on a Matter device that gives up: a device that went away is not answered for by
// matter.js until its retransmissions run out (~14 s) or, for a session it tries again, longer.

/**
 * What `work` resolves with, or an error "it did not answer within N s" after `ms`. `timers`: the
 * app's (`this.homey`, cleared when the app stops) or the process's.
 */
async function within(work, ms, timers = globalThis) {
  let timer;
  const late = new Promise((_resolve, reject) => {
    timer = timers.setTimeout(() => reject(new Error(`it did not answer within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    timers.clearTimeout(timer);
  }
}

module.exports = { within };
