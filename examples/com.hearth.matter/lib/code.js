'use strict';

// A Matter pairing code as people type it, checked before anything loads matter.js: 11 or 21
// digits with dashes and spaces, or the text of its QR code (MT:...).

function normalCode(input) {
  const text = String(input ?? '').trim();
  if (/^MT:[0-9A-Z.-]+$/i.test(text)) return text.toUpperCase();
  const digits = text.replace(/[\s-]/g, '');
  if (/^\d{11}$|^\d{21}$/.test(digits)) return digits;
  throw new Error('That is not a Matter pairing code: it has 11 digits (or 21), or is the text of its QR code (MT:...)');
}

module.exports = { normalCode };
