'use strict';
// The app's Web API, at /api/app/com.hearth.sysmon/...
module.exports = {
  async getReadings({ homey }) {
    return { interval: homey.app.seconds, readings: homey.app.readings };
  },

  async getReading({ homey, params }) {
    const reading = homey.app.readings[params.metric];
    if (!reading) {
      const err = new Error(`no reading of '${params.metric}'; this hub has: ${Object.keys(homey.app.readings).join(', ')}`);
      err.statusCode = 404;
      throw err;
    }
    return reading;
  },

  async sampleNow({ homey }) {
    return homey.app.sample();
  },
};
