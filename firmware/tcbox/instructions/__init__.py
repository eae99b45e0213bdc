"""The host's instructions on the box: held until the dealer's Confirm and answered
(``pending``, App's part), what each does to the table (``effects``), the dealer's words
for them (``words``).  Empty: each module is imported where it is used (issue #20).
"""
