// swift-format-ignore-file
/// The OpenAPI 3.1 document of the API, served at `/openapi.json`; the same bytes as `docs/openapi.json` (a test
/// checks both, and that every route of the router is in it).
public enum OpenAPIDocument {
    /// The document.
    public static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Indoor location server",
    "version": "1.0.0",
    "description": "Venues, sightings in; fixes, zone events and visits out; a live stream and a map. Keys: admin (everything), ingest (POST /v1/sightings, POST /v1/scans), read (GET routes, stream, map). Send 'Authorization: Bearer KEY', 'X-API-Key: KEY' or '?key=KEY'. Errors are JSON naming the field."
  },
  "components": {
    "securitySchemes": {
      "bearer": {
        "type": "http",
        "scheme": "bearer"
      },
      "apiKeyHeader": {
        "type": "apiKey",
        "in": "header",
        "name": "X-API-Key"
      },
      "apiKeyQuery": {
        "type": "apiKey",
        "in": "query",
        "name": "key"
      }
    },
    "schemas": {
      "Error": {
        "type": "object",
        "required": [
          "status",
          "code",
          "message"
        ],
        "properties": {
          "status": {
            "type": "integer"
          },
          "code": {
            "type": "string"
          },
          "field": {
            "type": "string"
          },
          "message": {
            "type": "string"
          }
        }
      },
      "Venue": {
        "type": "object",
        "required": [
          "id"
        ],
        "description": "The venue JSON of docs/FORMATS.md (floors, nodes, zones, anchor, geofences, connections). A venue is written with 'geofences' and 'connections' only when it has some. Rules JSON Schema cannot state, which the server checks (400 naming the field): floor levels, node ids, zone ids and connection ids are each unique in the venue; polygon fences and connection polygons are simple polygons; a geoline has two distinct points.",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1
          },
          "name": {
            "type": "string"
          },
          "floors": {
            "type": "array",
            "description": "The venue's floors; each level at most once.",
            "items": {
              "$ref": "#/components/schemas/Floor"
            }
          },
          "nodes": {
            "type": "array",
            "description": "The fixed radios (beacons and gateways); each id at most once.",
            "items": {
              "$ref": "#/components/schemas/Node"
            }
          },
          "zones": {
            "type": "array",
            "description": "Zones for check-in, check-out and dwell (docs/GEOFENCING.md); each id at most once.",
            "items": {
              "$ref": "#/components/schemas/Zone"
            }
          },
          "anchor": {
            "type": "object",
            "required": [
              "latitude",
              "longitude"
            ],
            "description": "Where the local frame sits on the Earth: the local origin in WGS84 degrees, and the direction of the local +y axis clockwise from true north (default 0).",
            "properties": {
              "latitude": {
                "type": "number",
                "minimum": -90,
                "maximum": 90
              },
              "longitude": {
                "type": "number",
                "minimum": -180,
                "maximum": 180
              },
              "bearingDegrees": {
                "type": "number",
                "minimum": -360,
                "maximum": 360
              }
            }
          },
          "geofences": {
            "type": "array",
            "description": "The ids of the location SDK's geofences this venue serves (POST /v1/scans finds the venue by them): non-empty, each listed once.",
            "uniqueItems": true,
            "items": {
              "type": "string",
              "minLength": 1
            }
          },
          "connections": {
            "type": "array",
            "description": "Where people move between floors (stairs, lifts, escalators, ramps). Ids are unique; when the venue lists floors, every level a connection joins is one of them.",
            "items": {
              "$ref": "#/components/schemas/FloorConnection"
            }
          }
        }
      },
      "FloorConnection": {
        "type": "object",
        "required": [
          "id",
          "levels"
        ],
        "description": "A floor connection: its footprint, the same on every floor it joins, is either 'polygon' (a simple polygon: at least 3 distinct vertices, not crossing itself, enclosing an area) or 'center' and 'radius', not both. 'kind' is written always and defaults to 'stairs' when read.",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1
          },
          "kind": {
            "type": "string",
            "enum": [
              "stairs",
              "lift",
              "escalator",
              "ramp"
            ],
            "default": "stairs"
          },
          "levels": {
            "type": "array",
            "description": "The floor levels it joins, each once",
            "minItems": 2,
            "uniqueItems": true,
            "items": {
              "type": "integer"
            }
          },
          "polygon": {
            "type": "array",
            "minItems": 3,
            "maxItems": 10000,
            "items": {
              "$ref": "#/components/schemas/Point"
            }
          },
          "center": {
            "$ref": "#/components/schemas/Point"
          },
          "radius": {
            "type": "number",
            "exclusiveMinimum": 0,
            "maximum": 100000,
            "description": "metres"
          }
        },
        "oneOf": [
          {
            "required": [
              "polygon"
            ],
            "not": {
              "required": [
                "center"
              ]
            }
          },
          {
            "required": [
              "center",
              "radius"
            ],
            "not": {
              "required": [
                "polygon"
              ]
            }
          }
        ]
      },
      "Point": {
        "type": "array",
        "description": "[x, y], metres in the venue's local frame, each within 100 km of the origin",
        "minItems": 2,
        "maxItems": 2,
        "items": {
          "type": "number",
          "minimum": -100000,
          "maximum": 100000
        }
      },
      "Floor": {
        "type": "object",
        "required": [
          "level"
        ],
        "description": "One level of the venue, metres in the local frame. Every key but 'level' may be left out: 'name' defaults to 'Level N', 'outline' and 'walls' to none, 'elevation' to 3.5 m per level. A level beyond ±28571 needs an 'elevation': its default (level × 3.5 m) would be more than 100 km from the origin.",
        "properties": {
          "level": {
            "type": "integer",
            "minimum": -9223372036854775808,
            "maximum": 9223372036854775807,
            "description": "The level number: 0 = ground, negative below ground; unique in the venue."
          },
          "name": {
            "type": "string",
            "description": "Display name; defaults to 'Level N'."
          },
          "outline": {
            "type": "array",
            "description": "The floor's outer boundary: its vertices in order (the last joins the first).",
            "items": {
              "$ref": "#/components/schemas/Point"
            }
          },
          "walls": {
            "type": "array",
            "description": "Walls, for maps and radio attenuation.",
            "items": {
              "$ref": "#/components/schemas/Segment"
            }
          },
          "elevation": {
            "type": "number",
            "minimum": -100000,
            "maximum": 100000,
            "description": "Height of this floor above the ground floor, metres; defaults to level × 3.5."
          }
        },
        "anyOf": [
          {
            "required": [
              "elevation"
            ]
          },
          {
            "properties": {
              "level": {
                "type": "integer",
                "minimum": -28571,
                "maximum": 28571
              }
            }
          }
        ]
      },
      "Segment": {
        "type": "array",
        "description": "[[x1, y1], [x2, y2]]: a straight wall between two points, metres in the local frame",
        "minItems": 2,
        "maxItems": 2,
        "items": {
          "$ref": "#/components/schemas/Point"
        }
      },
      "Node": {
        "type": "object",
        "required": [
          "id",
          "x",
          "y"
        ],
        "description": "A fixed radio: a beacon that phones hear (with 'beacon', its advertised identity) or a gateway that hears devices (without). Position in metres of the local frame; 'rssiAt1m' and 'pathLossExponent' are its path-loss calibration, written both when either was given (the other then takes the typical value).",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "description": "The id sightings name the node by; unique in the venue."
          },
          "beacon": {
            "$ref": "#/components/schemas/BeaconID"
          },
          "x": {
            "type": "number",
            "minimum": -100000,
            "maximum": 100000,
            "description": "metres"
          },
          "y": {
            "type": "number",
            "minimum": -100000,
            "maximum": 100000,
            "description": "metres"
          },
          "z": {
            "type": "number",
            "minimum": -100000,
            "maximum": 100000,
            "description": "Height above the node's floor, metres; default 0.",
            "default": 0
          },
          "floor": {
            "type": "integer",
            "minimum": -9223372036854775808,
            "maximum": 9223372036854775807,
            "description": "The floor level; left out in a one-floor venue."
          },
          "rssiAt1m": {
            "type": "number",
            "minimum": -130,
            "maximum": 20,
            "description": "RSSI at 1 m, dBm (the physical range −130…20)."
          },
          "pathLossExponent": {
            "type": "number",
            "exclusiveMinimum": 0,
            "description": "The path-loss exponent, > 0."
          }
        }
      },
      "BeaconID": {
        "type": "string",
        "description": "A beacon identity 'UUID/major/minor': the proximity UUID (either case) and major and minor as integers 0…65535, e.g. 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/42'. Written with the UUID in upper case.",
        "pattern": "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/([+]?0*(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})|-0+)/([+]?0*(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})|-0+)$"
      },
      "BeaconCondition": {
        "type": "string",
        "description": "A beacon identity with wildcards: 'UUID', 'UUID/major' or 'UUID/major/minor' (major and minor integers 0…65535); the parts left out match any value.",
        "pattern": "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(/([+]?0*(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})|-0+)(/([+]?0*(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})|-0+))?)?$"
      },
      "Zone": {
        "type": "object",
        "required": [
          "id"
        ],
        "description": "A named place that devices check in to (a fix in a fence, a zone beacon near enough, a track crossing a geoline) and out of. Every key but 'id' has a default; times in seconds, distances in metres. Ids are unique among the venue's zones.",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "description": "Events name the zone by it; unique in the venue."
          },
          "name": {
            "type": "string",
            "description": "For people; defaults to 'id'."
          },
          "fences": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ZoneFence"
            }
          },
          "beacons": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ZoneBeacon"
            }
          },
          "geolines": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ZoneGeoline"
            }
          },
          "checkOut": {
            "type": "boolean",
            "default": true,
            "description": "Whether devices check out of the zone (fences and beacons)."
          },
          "checkOutMargin": {
            "type": "number",
            "minimum": 0,
            "default": 1,
            "description": "How far beyond a fence (metres, on top of the fix's accuracy) a fix must be to count as outside."
          },
          "checkOutTime": {
            "type": "number",
            "minimum": 0,
            "default": 5,
            "description": "Seconds a device must stay outside every fence before it checks out."
          },
          "exitDelay": {
            "type": "number",
            "exclusiveMinimum": 0,
            "default": 10,
            "description": "Seconds without hearing any of the zone's beacons before a device checks out; > 0."
          },
          "lostTimeout": {
            "type": [
              "number",
              "null"
            ],
            "minimum": 0,
            "default": 60,
            "description": "Seconds a device inside a fence may go without a fix before it checks out as lost; null or 0 disables the rule (a zone without it is written with null)."
          },
          "dwellThreshold": {
            "type": "number",
            "minimum": 0,
            "description": "Seconds of a visit after which a dwell event fires; left out for none."
          },
          "retriggerTime": {
            "type": "number",
            "minimum": 0,
            "default": 0,
            "description": "Minimum seconds between a device's check-ins to the zone."
          },
          "data": {
            "type": "object",
            "description": "Custom key/value pairs delivered with every event of the zone.",
            "additionalProperties": {
              "type": "string"
            }
          },
          "enabled": {
            "type": "boolean",
            "default": true,
            "description": "A disabled zone checks no one in."
          }
        }
      },
      "ZoneFence": {
        "type": "object",
        "description": "An area of a zone: either 'polygon' (a simple polygon: at least 3 distinct vertices, not crossing itself, enclosing an area) or 'center' and 'radius', not both. 'floor' left out matches every floor; 'id' names the fence in events (without it, its index in the zone's fences).",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1
          },
          "floor": {
            "type": "integer",
            "minimum": -9223372036854775808,
            "maximum": 9223372036854775807,
            "description": "The floor level; left out for every floor."
          },
          "polygon": {
            "type": "array",
            "minItems": 3,
            "maxItems": 10000,
            "items": {
              "$ref": "#/components/schemas/Point"
            }
          },
          "center": {
            "$ref": "#/components/schemas/Point"
          },
          "radius": {
            "type": "number",
            "exclusiveMinimum": 0,
            "maximum": 100000,
            "description": "metres"
          }
        },
        "oneOf": [
          {
            "required": [
              "polygon"
            ],
            "not": {
              "required": [
                "center"
              ]
            }
          },
          {
            "required": [
              "center",
              "radius"
            ],
            "not": {
              "required": [
                "polygon"
              ]
            }
          }
        ]
      },
      "ZoneBeacon": {
        "type": "object",
        "description": "A beacon that checks devices in to the zone when they come within 'checkIn' proximity: named by a node id of the venue ('node'), by an identity with wildcards ('beacon'), or both (either matching is enough).",
        "properties": {
          "node": {
            "type": "string",
            "description": "A node id, as sightings and 'nodes' name it."
          },
          "beacon": {
            "$ref": "#/components/schemas/BeaconCondition"
          },
          "checkIn": {
            "type": "string",
            "enum": [
              "immediate",
              "near",
              "far"
            ],
            "default": "near"
          }
        },
        "anyOf": [
          {
            "required": [
              "node"
            ]
          },
          {
            "required": [
              "beacon"
            ]
          }
        ]
      },
      "ZoneGeoline": {
        "type": "object",
        "required": [
          "points"
        ],
        "description": "A polyline that checks a device in when its track crosses it: at least 2 points, not all the same (the server refuses a line whose points are all equal). 'id' names it in events (without it, its index); 'floor' left out matches every floor.",
        "properties": {
          "id": {
            "type": "string"
          },
          "floor": {
            "type": "integer",
            "minimum": -9223372036854775808,
            "maximum": 9223372036854775807,
            "description": "The floor level; left out for every floor."
          },
          "points": {
            "type": "array",
            "minItems": 2,
            "items": {
              "$ref": "#/components/schemas/Point"
            }
          }
        }
      },
      "VenueList": {
        "type": "object",
        "required": [
          "venues"
        ],
        "properties": {
          "venues": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "id": {
                  "type": "string"
                },
                "name": {
                  "type": "string"
                },
                "floors": {
                  "type": "array",
                  "items": {
                    "type": "integer"
                  }
                },
                "nodes": {
                  "type": "integer"
                },
                "zones": {
                  "type": "integer"
                },
                "survey": {
                  "type": "string",
                  "enum": [
                    "none",
                    "learning",
                    "learned",
                    "failed"
                  ],
                  "description": "The venue's site survey (indoor serve --survey): none given, being learned in the background (the venue runs without it meanwhile), learned (its fixes and scans come from the radio map), or failed (the server's log says why)."
                }
              }
            }
          }
        }
      },
      "Sighting": {
        "type": "object",
        "required": [
          "t",
          "device",
          "rssi"
        ],
        "description": "One of node and beacon is required.",
        "properties": {
          "t": {
            "type": "number"
          },
          "device": {
            "type": "string",
            "minLength": 1
          },
          "node": {
            "type": "string",
            "minLength": 1
          },
          "beacon": {
            "type": "string",
            "description": "UUID/major/minor"
          },
          "rssi": {
            "type": "number",
            "minimum": -130,
            "maximum": 20
          },
          "tx": {
            "type": "number",
            "minimum": -128,
            "maximum": 127
          }
        }
      },
      "SightingBatch": {
        "type": "object",
        "required": [
          "venue",
          "sightings"
        ],
        "properties": {
          "venue": {
            "type": "string"
          },
          "sightings": {
            "type": "array",
            "maxItems": 10000,
            "items": {
              "$ref": "#/components/schemas/Sighting"
            }
          }
        }
      },
      "Fix": {
        "type": "object",
        "required": [
          "t",
          "device",
          "x",
          "y",
          "z",
          "accuracy",
          "confidence",
          "method"
        ],
        "properties": {
          "t": {
            "type": "number"
          },
          "device": {
            "type": "string"
          },
          "x": {
            "type": "number"
          },
          "y": {
            "type": "number"
          },
          "z": {
            "type": "number"
          },
          "floor": {
            "type": "integer"
          },
          "accuracy": {
            "type": "number"
          },
          "confidence": {
            "type": "number"
          },
          "method": {
            "type": "string"
          },
          "latitude": {
            "type": "number"
          },
          "longitude": {
            "type": "number"
          }
        }
      },
      "ZoneEvent": {
        "type": "object",
        "required": [
          "event",
          "t",
          "zone",
          "zoneName",
          "device",
          "trigger"
        ],
        "properties": {
          "event": {
            "type": "string",
            "enum": [
              "checkIn",
              "checkOut",
              "dwell"
            ]
          },
          "t": {
            "type": "number"
          },
          "zone": {
            "type": "string"
          },
          "zoneName": {
            "type": "string"
          },
          "device": {
            "type": "string"
          },
          "trigger": {
            "type": "string",
            "enum": [
              "fence",
              "beacon",
              "geoline"
            ]
          },
          "dwell": {
            "type": "number"
          },
          "checkIn": {
            "type": "number"
          },
          "departure": {
            "type": "number"
          },
          "reason": {
            "type": "string",
            "enum": [
              "left",
              "lost"
            ]
          },
          "data": {
            "type": "object",
            "additionalProperties": {
              "type": "string"
            }
          }
        }
      },
      "IngestResponse": {
        "type": "object",
        "required": [
          "venue",
          "accepted",
          "rejected",
          "fixes",
          "events",
          "errors"
        ],
        "properties": {
          "venue": {
            "type": "string"
          },
          "accepted": {
            "type": "integer"
          },
          "rejected": {
            "type": "integer"
          },
          "fixes": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Fix"
            }
          },
          "events": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ZoneEvent"
            }
          },
          "lastEventId": {
            "type": "integer"
          },
          "errors": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "index",
                "field",
                "message"
              ],
              "properties": {
                "index": {
                  "type": "integer"
                },
                "field": {
                  "type": "string"
                },
                "message": {
                  "type": "string"
                }
              }
            }
          }
        }
      },
      "Visit": {
        "type": "object",
        "required": [
          "id",
          "venue",
          "zone",
          "zoneName",
          "device",
          "trigger",
          "checkIn"
        ],
        "properties": {
          "id": {
            "type": "integer"
          },
          "venue": {
            "type": "string"
          },
          "zone": {
            "type": "string"
          },
          "zoneName": {
            "type": "string"
          },
          "device": {
            "type": "string"
          },
          "trigger": {
            "type": "string"
          },
          "checkIn": {
            "type": "number"
          },
          "checkOut": {
            "type": "number"
          },
          "departure": {
            "type": "number"
          },
          "dwell": {
            "type": "number"
          },
          "reason": {
            "type": "string",
            "enum": [
              "left",
              "lost",
              "crossing"
            ]
          }
        }
      },
      "ActivityPage": {
        "type": "object",
        "required": [
          "visits"
        ],
        "properties": {
          "visits": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Visit"
            }
          },
          "nextCursor": {
            "type": "string"
          }
        }
      },
      "DeviceList": {
        "type": "object",
        "required": [
          "venue",
          "devices"
        ],
        "properties": {
          "venue": {
            "type": "string"
          },
          "devices": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/DeviceFix"
            }
          }
        }
      },
      "DeviceRoom": {
        "type": "object",
        "required": [
          "state"
        ],
        "description": "The room a device is in as the venue's session holds it (RoomHold: held through fixes that stray over a wall, changed when they settle in another room). state 'room': in the zone 'zone' (a zone with a polygon fence); 'noRoom': in no room; 'unknown': its fixes left the room held without settling in another.",
        "properties": {
          "state": {
            "type": "string",
            "enum": [
              "room",
              "noRoom",
              "unknown"
            ]
          },
          "zone": {
            "type": "string",
            "description": "The room's zone id (only with state 'room')"
          },
          "zoneName": {
            "type": "string",
            "description": "The room's zone name (only with state 'room')"
          }
        },
        "oneOf": [
          {
            "properties": {
              "state": {
                "const": "room"
              }
            },
            "required": [
              "zone",
              "zoneName"
            ]
          },
          {
            "properties": {
              "state": {
                "enum": [
                  "noRoom",
                  "unknown"
                ]
              }
            },
            "not": {
              "anyOf": [
                {
                  "required": [
                    "zone"
                  ]
                },
                {
                  "required": [
                    "zoneName"
                  ]
                }
              ]
            }
          }
        ]
      },
      "DeviceFix": {
        "description": "A device's latest fix, with its held room when the server's session has one ('room' is left out when the venue has no rooms, i.e. no zone with a polygon fence, or the session has no fix of the device: none since the server started or the venue was last put, or none in the last hour of data time).",
        "allOf": [
          {
            "$ref": "#/components/schemas/Fix"
          },
          {
            "type": "object",
            "properties": {
              "room": {
                "$ref": "#/components/schemas/DeviceRoom"
              }
            }
          }
        ]
      },
      "StreamEvent": {
        "type": "object",
        "required": [
          "id",
          "venue",
          "type"
        ],
        "description": "The data of one event of GET /v1/stream. A live fix carries its device's held room ('room') when it is the device's latest fix of its batch and the venue has rooms; replayed events (Last-Event-ID) and earlier fixes of a batch carry none: keep the last room seen.",
        "properties": {
          "id": {
            "type": "integer"
          },
          "venue": {
            "type": "string"
          },
          "type": {
            "type": "string",
            "enum": [
              "fix",
              "zone"
            ]
          },
          "fix": {
            "$ref": "#/components/schemas/Fix"
          },
          "zone": {
            "$ref": "#/components/schemas/ZoneEvent"
          },
          "room": {
            "$ref": "#/components/schemas/DeviceRoom"
          }
        }
      },
      "Health": {
        "type": "object",
        "required": [
          "status",
          "database",
          "venues"
        ],
        "properties": {
          "status": {
            "type": "string"
          },
          "database": {
            "type": "string"
          },
          "venues": {
            "type": "integer"
          }
        }
      },
      "NewKey": {
        "type": "object",
        "required": [
          "kind"
        ],
        "properties": {
          "kind": {
            "type": "string",
            "enum": [
              "admin",
              "ingest",
              "read"
            ]
          },
          "label": {
            "type": "string"
          }
        }
      },
      "Key": {
        "type": "object",
        "required": [
          "key",
          "kind",
          "label"
        ],
        "properties": {
          "key": {
            "type": "string"
          },
          "kind": {
            "type": "string"
          },
          "label": {
            "type": "string"
          }
        }
      },
      "ScanRequest": {
        "type": "object",
        "required": [
          "geofence",
          "sightings"
        ],
        "properties": {
          "geofence": {
            "type": "string",
            "minLength": 1,
            "description": "A geofence id a venue lists in its geofences"
          },
          "sightings": {
            "type": "array",
            "minItems": 1,
            "maxItems": 10000,
            "items": {
              "$ref": "#/components/schemas/Sighting"
            }
          },
          "duration": {
            "type": "number",
            "exclusiveMinimum": 0,
            "maximum": 300,
            "description": "Seconds of data time from the first sighting; all the sightings given when absent"
          },
          "knownLocation": {
            "type": "object",
            "required": [
              "latitude",
              "longitude"
            ],
            "properties": {
              "latitude": {
                "type": "number",
                "minimum": -90,
                "maximum": 90
              },
              "longitude": {
                "type": "number",
                "minimum": -180,
                "maximum": 180
              },
              "horizontalAccuracy": {
                "type": "number",
                "minimum": 0
              },
              "floor": {
                "type": "integer"
              },
              "timestamp": {
                "type": "number"
              }
            }
          },
          "device": {
            "type": "string",
            "minLength": 1,
            "description": "The device to locate; the one heard most often when absent"
          }
        }
      },
      "ScanResult": {
        "type": "object",
        "required": [
          "floor",
          "latitude",
          "longitude",
          "x",
          "y",
          "accuracy",
          "confidence",
          "timestamp",
          "provider",
          "geofenceId",
          "venueId",
          "method",
          "beacons",
          "duration"
        ],
        "properties": {
          "floor": {
            "type": [
              "integer",
              "null"
            ]
          },
          "latitude": {
            "type": [
              "number",
              "null"
            ]
          },
          "longitude": {
            "type": [
              "number",
              "null"
            ]
          },
          "x": {
            "type": "number",
            "description": "metres, venue frame"
          },
          "y": {
            "type": "number",
            "description": "metres, venue frame"
          },
          "accuracy": {
            "type": "number",
            "description": "metres"
          },
          "confidence": {
            "type": "number",
            "minimum": 0,
            "maximum": 1
          },
          "timestamp": {
            "type": "number",
            "description": "Unix seconds (the sightings' clock)"
          },
          "provider": {
            "type": "string"
          },
          "geofenceId": {
            "type": "string"
          },
          "venueId": {
            "type": "string"
          },
          "method": {
            "type": "string"
          },
          "beacons": {
            "type": "integer",
            "minimum": 0
          },
          "duration": {
            "type": "number",
            "description": "seconds"
          }
        }
      }
    }
  },
  "paths": {
    "/": {
      "get": {
        "summary": "The live map page (HTML)",
        "operationId": "map",
        "responses": {
          "200": {
            "description": "The page",
            "content": {
              "text/html": {
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/assets/map.js": {
      "get": {
        "summary": "The map's script",
        "operationId": "mapScript",
        "responses": {
          "200": {
            "description": "Script",
            "content": {
              "text/javascript": {
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/assets/map.css": {
      "get": {
        "summary": "The map's style",
        "operationId": "mapStyle",
        "responses": {
          "200": {
            "description": "Style",
            "content": {
              "text/css": {
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/openapi.json": {
      "get": {
        "summary": "This document",
        "operationId": "openapi",
        "responses": {
          "200": {
            "description": "OpenAPI 3.1",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          }
        }
      }
    },
    "/health": {
      "get": {
        "summary": "Liveness and database reachability",
        "operationId": "health",
        "responses": {
          "200": {
            "description": "Up, database reachable",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Health"
                }
              }
            }
          },
          "503": {
            "description": "Database unreachable",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Health"
                }
              }
            }
          }
        }
      }
    },
    "/metrics": {
      "get": {
        "summary": "Prometheus metrics (text format)",
        "operationId": "metrics",
        "responses": {
          "200": {
            "description": "Metrics",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/v1/venues": {
      "get": {
        "summary": "List venues",
        "operationId": "listVenues",
        "security": [
          {
            "bearer": []
          },
          {
            "apiKeyHeader": []
          },
          {
            "apiKeyQuery": []
          }
        ],
        "responses": {
          "200": {
            "description": "Venues",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/VenueList"
                }
              }
            }
          },
          "401": {
            "description": "No key, or an unknown key",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "A key of the wrong kind",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/v1/venues/{venue}": {
      "parameters": [
        {
          "name": "venue",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "summary": "Get a venue",
        "operationId": "getVenue",
        "security": [
          {
            "bearer": []
          },
          {
            "apiKeyHeader": []
          },
          {
            "apiKeyQuery": []
          }
        ],
        "responses": {
          "200": {
            "description": "The venue",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Venue"
                }
              }
            }
          },
          "401": {
            "description": "No key, or an unknown key",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "A key of the wrong kind",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such venue",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "put": {
        "summary": "Create or replace a venue (admin)",
        "operationId": "putVenue",
        "security": [
          {
            "bearer": []
          },
          {
            "apiKeyHeader": []
          },
          {
            "apiKeyQuery": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/Venue"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Replaced",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Venue"
                }
              }
            }
          },
          "201": {
            "description": "Created",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Venue"
                }
              }
            }
          },
          "400": {
            "description": "Not a valid venue; field names the JSON path",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "description": "No key, or an unknown key",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "A key of the wrong kind",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "413": {
            "description": "Body over the limit",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "delete": {
        "summary": "Delete a venue (admin); its activity stays",
        "operationId": "deleteVenue",
        "security": [
          {
            "bearer": []
          },
          {
            "apiKeyHeader": []
          },
          {
            "apiKeyQuery": []
          }
        ],
        "responses": {
          "204": {
            "description": "Deleted"
          },
          "401": {
            "description": "No key, or an unknown key",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "A key of the wrong kind",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such venue",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/v1/venues/{venue}/devices": {
      "parameters": [
        {
          "name": "venue",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "summary": "Active devices of a venue: latest fixes within a window of the newest",
        "operationId": "activeDevices",
        "security": [
          {
            "bearer": []
          },
          {
            "apiKeyHeader": []
          },
          {
            "apiKeyQuery": []
          }
        ],
        "parameters": [
          {
            "name": "within",
            "in": "query",
            "schema": {
              "type": "number"
            },
            "description": "Seconds of data time (default 300)"
          }
        ],
        "responses": {
          "200": {
            "description": "Devices",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DeviceList"
                }
              }
            }
          },
          "400": {
            "description": "Bad parameter",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "description": "No key, or an unknown key",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "A key of the wrong kind",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such venue",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/v1/venues/{venue}/devices/{device}": {
      "parameters": [
        {
          "name": "venue",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "device",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "summary": "Latest fix of a device",
        "operationId": "latestFix",
        "security": [
          {
            "bearer": []
          },
          {
            "apiKeyHeader": []
          },
          {
            "apiKeyQuery": []
          }
        ],
        "responses": {
          "200": {
            "description": "The fix",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DeviceFix"
                }
              }
            }
          },
          "401": {
            "description": "No key, or an unknown key",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "A key of the wrong kind",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such venue or no fix",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/v1/sightings": {
      "post": {
        "summary": "Ingest a batch of sightings (ingest key); answers after they and their events are stored",
        "operationId": "postSightings",
        "security": [
          {
            "bearer": []
          },
          {
            "apiKeyHeader": []
          },
          {
            "apiKeyQuery": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/SightingBatch"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Fixes, zone events and per-item errors",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/IngestResponse"
                }
              }
            }
          },
          "400": {
            "description": "Malformed JSON, or every sighting refused",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "description": "No key, or an unknown key",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "A key of the wrong kind",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "Unknown venue",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "413": {
            "description": "Batch or body over the limit",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/v1/activity": {
      "get": {
        "summary": "Zone visits (check-in, check-out, dwell), newest first, paginated",
        "operationId": "activity",
        "security": [
          {
            "bearer": []
          },
          {
            "apiKeyHeader": []
          },
          {
            "apiKeyQuery": []
          }
        ],
        "parameters": [
          {
            "name": "venue",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "name": "zone",
            "in": "query",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "device",
            "in": "query",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "from",
            "in": "query",
            "schema": {
              "type": "number"
            },
            "description": "Visits open at or after (data time, s)"
          },
          {
            "name": "to",
            "in": "query",
            "schema": {
              "type": "number"
            },
            "description": "Visits begun before (data time, s)"
          },
          {
            "name": "limit",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            }
          },
          {
            "name": "cursor",
            "in": "query",
            "schema": {
              "type": "string",
              "minLength": 1
            },
            "description": "nextCursor of the previous page"
          }
        ],
        "responses": {
          "200": {
            "description": "A page of visits",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ActivityPage"
                }
              }
            }
          },
          "400": {
            "description": "Bad parameter",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "description": "No key, or an unknown key",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "A key of the wrong kind",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "Unknown venue",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/v1/stream": {
      "get": {
        "summary": "Fixes and zone events as Server-Sent Events (id = event id; Last-Event-ID resumes)",
        "operationId": "stream",
        "security": [
          {
            "bearer": []
          },
          {
            "apiKeyHeader": []
          },
          {
            "apiKeyQuery": []
          }
        ],
        "parameters": [
          {
            "name": "venue",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "Last-Event-ID",
            "in": "header",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "lastEventId",
            "in": "query",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The event stream; each event's data is a StreamEvent",
            "content": {
              "text/event-stream": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "400": {
            "description": "Bad parameter",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "description": "No key, or an unknown key",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "A key of the wrong kind",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "Unknown venue",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/v1/keys": {
      "post": {
        "summary": "Make a key (admin); the key is shown only in this answer",
        "operationId": "newKey",
        "security": [
          {
            "bearer": []
          },
          {
            "apiKeyHeader": []
          },
          {
            "apiKeyQuery": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewKey"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The new key",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Key"
                }
              }
            }
          },
          "400": {
            "description": "Bad kind",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "description": "No key, or an unknown key",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "A key of the wrong kind",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/v1/scans": {
      "post": {
        "summary": "Scan a geofence over the sightings given (ingest key): the indoor provider's result JSON",
        "operationId": "postScans",
        "security": [
          {
            "bearer": []
          },
          {
            "apiKeyHeader": []
          },
          {
            "apiKeyQuery": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ScanRequest"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The scan's result",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ScanResult"
                }
              }
            }
          },
          "400": {
            "description": "Malformed JSON, a bad sighting, no sightings, or a duration out of range",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "description": "No key, or an unknown key",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "A key of the wrong kind",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No venue serves the geofence",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "413": {
            "description": "Body over the limit",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "422": {
            "description": "The scan has no answer: nothing of the venue heard (nothingHeard), or too few beacons (tooFewBeacons)",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    }
  }
}
"""#
}
