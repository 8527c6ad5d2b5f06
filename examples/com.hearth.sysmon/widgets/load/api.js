'use strict';
// The load widget's Web API: its page calls Homey.api('GET', '/?metric=...').
module.exports = {
  async getReading({ homey, query }) {
    return homey.app.readings[query.metric] || null;
  },
};
