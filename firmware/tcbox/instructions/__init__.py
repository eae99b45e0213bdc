"""The host's instructions on the box: held until the dealer's Confirm and answered
(``pending``, App's part), each one's state (``book``, the box's one book of them, the
link's and the App's), what each does to the table (``at_table``), the dealer's words
for them (``words``).  Empty: each module is imported where it is used (issue #20).
"""
