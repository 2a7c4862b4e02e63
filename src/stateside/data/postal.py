"""The 50 states' USPS codes (USPS Publication 28, Appendix B): the one list every data
file's state codes are checked against. A module of its own, with no import, so that the
atlas (geo) and the state facts (data) share it without geo and data importing each other,
and drawing the map at start-up need not load YAML."""

STATE_COUNT = 50
POSTAL_CODES = frozenset("AK AL AR AZ CA CO CT DE FL GA HI IA ID IL IN KS KY LA MA MD ME MI MN MO MS MT NC ND "
                         "NE NH NJ NM NV NY OH OK OR PA RI SC SD TN TX UT VA VT WA WI WV WY".split())
assert len(POSTAL_CODES) == STATE_COUNT
