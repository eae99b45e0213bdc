"""The links to the boxes (docs/architecture.md): the USB serial port and pairing (usb),
the link to one box (boxlink) and its record (hoststore), the MQTT hub (mqtt), the brokers
(broker, brokerauth), the Wi-Fi logins and notes, the in-memory cable (pipe) and the typed
messages (records)."""
