'use strict';

module.exports = require('../../lib/virtual-driver');
