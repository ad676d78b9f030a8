/**
 * The examples the OpenAPI document shows for each operation (docs/api-notes.md "Examples"), keyed by operationId:
 * the request (path and query parameters, body) and the response it got. Every request names a record of the demo
 * company (`fleetops demo`, src/modules/companies/demo.ts) and succeeds when tried from /docs against it as loaded;
 * every response is what the service answered to it (captured from the demo, ids and times included). Tests send
 * each request to a server holding the demo and expect a 2xx, and validate each response against the operation’s
 * schema (test/openapi-examples.test.ts).
 */
export interface OperationExample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  response: unknown;
}

export const examples: Record<string, OperationExample> = {
  listAircraft: {
    response: {
      data: [
        {
          category: "rotary-wing",
          companyId: "demo",
          createdAt: "2026-11-23T16:19:24.254Z",
          engineCount: 1,
          engineType: "turbine",
          initialValues: {
            hobbs: 1200.5,
            landings: 3000
          },
          logTrackingItems: {
            remarks: {
              type: "string",
              displayText: "Remarks"
            },
            fuelUplift: {
              type: "number",
              displayText: "Fuel uplift (L)"
            }
          },
          maintenanceTrackingItems: {
            hobbs: {
              type: "number",
              precision: 1,
              displayText: "Hobbs"
            },
            landings: {
              type: "number",
              precision: 0,
              displayText: "Landings"
            }
          },
          manufacturer: "Bell",
          model: "206B",
          registration: "VH-ABC",
          status: "active",
          totals: {
            hobbs: 1411.8,
            landings: 3670
          },
          type: "B06",
          uid: "demo-vh-abc",
          updatedAt: "2026-11-23T16:19:28.089Z"
        },
        {
          category: "fixed-wing",
          companyId: "demo",
          createdAt: "2026-11-23T16:19:24.352Z",
          engineCount: 1,
          engineType: "piston",
          initialValues: {
            tacho: 4321.25,
            airframeHours: 5102.4
          },
          logTrackingItems: {},
          maintenanceTrackingItems: {
            tacho: {
              type: "number",
              precision: 2,
              displayText: "Tacho"
            },
            airframeHours: {
              type: "number",
              precision: 1,
              displayText: "Airframe hours"
            }
          },
          manufacturer: "Cessna",
          model: "172S",
          registration: "VH-XYZ",
          status: "active",
          totals: {
            tacho: 4607.02,
            airframeHours: 5431.5
          },
          type: "C172",
          uid: "demo-vh-xyz",
          updatedAt: "2026-11-23T16:19:27.961Z"
        }
      ],
      count: 2
    }
  },
  getAircraft: {
    params: {
      id: "demo-vh-abc"
    },
    response: {
      category: "rotary-wing",
      companyId: "demo",
      createdAt: "2026-11-23T16:19:24.254Z",
      engineCount: 1,
      engineType: "turbine",
      initialValues: {
        hobbs: 1200.5,
        landings: 3000
      },
      logTrackingItems: {
        remarks: {
          type: "string",
          displayText: "Remarks"
        },
        fuelUplift: {
          type: "number",
          displayText: "Fuel uplift (L)"
        }
      },
      maintenanceTrackingItems: {
        hobbs: {
          type: "number",
          precision: 1,
          displayText: "Hobbs"
        },
        landings: {
          type: "number",
          precision: 0,
          displayText: "Landings"
        }
      },
      manufacturer: "Bell",
      model: "206B",
      registration: "VH-ABC",
      status: "active",
      totals: {
        hobbs: 1411.8,
        landings: 3670
      },
      type: "B06",
      uid: "demo-vh-abc",
      updatedAt: "2026-11-23T16:19:32.638Z"
    }
  },
  listFlightLogs: {
    query: {
      aircraftId: "demo-vh-abc",
      limit: "2"
    },
    response: {
      data: [
        {
          uid: "fl_demo_test_2",
          timeDate: "2026-11-23T07:06:00.000Z",
          pilot: "demo-pilot",
          aircraftId: "demo-vh-abc",
          aircraftRegistration: "VH-ABC",
          startLocation: "YSBK",
          endLocation: "YSBK",
          pax: 1,
          companyId: "demo",
          createdAt: "2026-11-23T16:19:34.787Z",
          updatedAt: "2026-11-23T16:19:34.787Z",
          hobbs: 0.1,
          remarks: "Test entry",
          landings: 1
        },
        {
          uid: "fl_demo_test_1",
          timeDate: "2026-11-23T07:00:00.000Z",
          pilot: "demo-pilot",
          aircraftId: "demo-vh-abc",
          aircraftRegistration: "VH-ABC",
          startLocation: "YSBK",
          endLocation: "YSBK",
          pax: 1,
          companyId: "demo",
          createdAt: "2026-11-23T16:19:34.765Z",
          updatedAt: "2026-11-23T16:19:34.765Z",
          hobbs: 0.1,
          remarks: "Test entry",
          landings: 1
        }
      ],
      count: 2,
      nextCursor: "WyIyMDI2LTExLTIzVDA3OjAwOjAwLjAwMFoiLCJmbF9kZW1vX3Rlc3RfMSJd"
    }
  },
  getFlightLog: {
    params: {
      id: "fl_demo_latest"
    },
    response: {
      uid: "fl_demo_latest",
      timeDate: "2026-11-23T06:30:00.000Z",
      pilot: "demo-pilot",
      aircraftId: "demo-vh-abc",
      aircraftRegistration: "VH-ABC",
      startLocation: "YSBK",
      endLocation: "YSCN",
      pax: 3,
      companyId: "demo",
      createdAt: "2026-11-23T16:19:37.216Z",
      updatedAt: "2026-11-23T16:19:37.216Z",
      hobbs: 1.2,
      remarks: "Charter",
      landings: 2,
      fuelUplift: 140
    }
  },
  createFlightLog: {
    body: {
      timeDate: "2026-03-02T08:30:00+11:00",
      pilot: "demo-pilot",
      aircraftId: "demo-vh-abc",
      aircraftRegistration: "VH-ABC",
      startLocation: "YSBK",
      endLocation: "YSCN",
      pax: 2,
      hobbs: 1.3,
      landings: 3,
      fuelUplift: 120,
      remarks: "Scenic flight"
    },
    response: {
      status: "created",
      uid: "fl_01k84j9efkgrihkbgef0"
    }
  },
  updateFlightLog: {
    params: {
      id: "fl_demo_latest"
    },
    body: {
      pax: 4,
      notes: "Two more passengers joined at YSCN"
    },
    response: {
      status: "updated",
      uid: "fl_demo_latest"
    }
  },
  deleteFlightLog: {
    params: {
      id: "fl_demo_duplicate"
    },
    response: {
      status: "deleted",
      uid: "fl_demo_duplicate"
    }
  },
  batchCreateFlightLogs: {
    body: {
      items: [
        {
          timeDate: "2026-03-03T07:45:00+11:00",
          pilot: "demo-pilot",
          aircraftId: "demo-vh-xyz",
          aircraftRegistration: "VH-XYZ",
          startLocation: "YSBK",
          endLocation: "YWOL",
          pax: 1,
          tacho: 1.15,
          airframeHours: 1.3
        },
        {
          timeDate: "2026-03-03T11:10:00+11:00",
          pilot: "demo-pilot",
          aircraftId: "demo-vh-xyz",
          aircraftRegistration: "VH-XYZ",
          startLocation: "YWOL",
          endLocation: "YSBK",
          pax: 1,
          tacho: 1.05,
          airframeHours: 1.2
        }
      ]
    },
    response: {
      errors: [],
      results: [
        {
          status: "created",
          uid: "fl_01k84j9ilafghr313n0b"
        },
        {
          status: "created",
          uid: "fl_01k84j9ilapoih1cgc59"
        }
      ]
    }
  },
  batchDeleteFlightLogs: {
    body: {
      ids: [
        "fl_demo_test_1",
        "fl_demo_test_2"
      ]
    },
    response: {
      errors: [],
      results: [
        {
          status: "deleted",
          uid: "fl_demo_test_1"
        },
        {
          status: "deleted",
          uid: "fl_demo_test_2"
        }
      ]
    }
  },
  listUsers: {
    query: {
      status: "Active"
    },
    response: {
      data: [
        {
          displayName: "Dana Driver",
          email: "driver@demo.fleetops.test",
          roles: [
            "driver"
          ],
          status: "Active",
          uid: "demo-driver"
        },
        {
          displayName: "Olivia Owner",
          email: "owner@demo.fleetops.test",
          firstName: "Olivia",
          lastName: "Owner",
          roles: [
            "owner",
            "admin"
          ],
          status: "Active",
          timezone: "Australia/Sydney",
          uid: "demo-owner"
        },
        {
          displayName: "Pat Pilot",
          email: "pilot@demo.fleetops.test",
          firstName: "Pat",
          lastName: "Pilot",
          phone: "+61400000000",
          roles: [
            "pilot"
          ],
          status: "Active",
          timezone: "Australia/Sydney",
          uid: "demo-pilot"
        }
      ],
      count: 3
    }
  },
  getUser: {
    params: {
      uid: "demo-pilot"
    },
    response: {
      displayName: "Pat Pilot",
      email: "pilot@demo.fleetops.test",
      firstName: "Pat",
      lastName: "Pilot",
      phone: "+61400000000",
      roles: [
        "pilot"
      ],
      status: "Active",
      timezone: "Australia/Sydney",
      uid: "demo-pilot"
    }
  },
  listComponents: {
    query: {
      rootAssetUid: "demo-vh-xyz"
    },
    response: {
      data: [
        {
          alternatePartNumbers: [],
          ancestorUids: [
            "demo-vh-xyz"
          ],
          canHaveChildren: true,
          childCount: 0,
          companyId: "demo",
          counters: [
            {
              basis: "sinceNew",
              displayText: "Hours since new",
              key: "hoursSinceNew",
              precision: 1,
              unit: "hours",
              binding: {
                boundAt: "2026-11-23T16:19:47.660Z",
                parentType: "aircraft",
                parentUid: "demo-vh-xyz",
                parentValue: 4321.25,
                selfValue: 3120.4,
                sourceDisplayText: "Tacho",
                sourceKey: "tacho",
                sourcePrecision: 2
              }
            },
            {
              basis: "sinceEvent",
              displayText: "Hours since overhaul",
              key: "hoursSinceOverhaul",
              precision: 1,
              unit: "hours",
              binding: {
                boundAt: "2026-11-23T16:19:47.660Z",
                parentType: "aircraft",
                parentUid: "demo-vh-xyz",
                parentValue: 4321.25,
                selfValue: 412.8,
                sourceDisplayText: "Tacho",
                sourceKey: "tacho",
                sourcePrecision: 2
              }
            }
          ],
          createdAt: "2026-11-23T16:19:47.651Z",
          installedAt: "2026-11-23T16:19:47.660Z",
          manufacturer: "Lycoming",
          name: "Engine",
          parent: {
            name: "VH-XYZ",
            type: "aircraft",
            uid: "demo-vh-xyz"
          },
          partNumber: "IO-360-L2A",
          rootAsset: {
            name: "VH-XYZ",
            type: "aircraft",
            uid: "demo-vh-xyz"
          },
          serialNumber: "L-32145-51A",
          state: "installed",
          status: "active",
          totals: {
            hoursSinceNew: 3406.17,
            hoursSinceOverhaul: 698.57
          },
          type: "Engine",
          uid: "cmp_demo_engine",
          updatedAt: "2026-11-23T16:19:47.660Z"
        },
        {
          alternatePartNumbers: [],
          ancestorUids: [
            "demo-vh-xyz"
          ],
          canHaveChildren: true,
          childCount: 0,
          companyId: "demo",
          counters: [
            {
              basis: "sinceNew",
              displayText: "Hours",
              key: "hours",
              precision: 1,
              unit: "hours",
              binding: {
                boundAt: "2026-11-23T16:19:47.694Z",
                parentType: "aircraft",
                parentUid: "demo-vh-xyz",
                parentValue: 4321.25,
                selfValue: 0,
                sourceDisplayText: "Tacho",
                sourceKey: "tacho",
                sourcePrecision: 2
              }
            }
          ],
          createdAt: "2026-11-23T16:19:47.665Z",
          installedAt: "2026-11-23T16:19:47.694Z",
          name: "VHF radio",
          parent: {
            name: "VH-XYZ",
            type: "aircraft",
            uid: "demo-vh-xyz"
          },
          partNumber: "KY-97A",
          rootAsset: {
            name: "VH-XYZ",
            type: "aircraft",
            uid: "demo-vh-xyz"
          },
          serialNumber: "KY-5521",
          state: "installed",
          status: "active",
          totals: {
            hours: 285.77
          },
          type: "Avionics",
          uid: "cmp_demo_radio",
          updatedAt: "2026-11-23T16:19:47.695Z"
        }
      ],
      count: 2
    }
  },
  getComponent: {
    params: {
      id: "cmp_demo_blade"
    },
    response: {
      alternatePartNumbers: [],
      ancestorUids: [
        "demo-vh-abc"
      ],
      canHaveChildren: true,
      childCount: 0,
      companyId: "demo",
      counters: [
        {
          basis: "sinceNew",
          displayText: "Hours",
          key: "hours",
          precision: 1,
          unit: "hours",
          binding: {
            boundAt: "2026-11-23T16:19:49.541Z",
            parentType: "aircraft",
            parentUid: "demo-vh-abc",
            parentValue: 1200.5,
            selfValue: 0,
            sourceDisplayText: "Hobbs",
            sourceKey: "hobbs",
            sourcePrecision: 1
          }
        },
        {
          basis: "sinceEvent",
          displayText: "Hours since inspection",
          key: "hoursSinceInspection",
          precision: 1,
          unit: "hours",
          binding: {
            boundAt: "2026-11-23T16:19:49.541Z",
            parentType: "aircraft",
            parentUid: "demo-vh-abc",
            parentValue: 1200.5,
            selfValue: 0,
            sourceDisplayText: "Hobbs",
            sourceKey: "hobbs",
            sourcePrecision: 1
          }
        }
      ],
      createdAt: "2026-11-23T16:19:49.509Z",
      installedAt: "2026-11-23T16:19:49.541Z",
      manufacturer: "Bell",
      name: "Main rotor blade",
      parent: {
        name: "VH-ABC",
        type: "aircraft",
        uid: "demo-vh-abc"
      },
      partNumber: "206-010-200-133",
      rootAsset: {
        name: "VH-ABC",
        type: "aircraft",
        uid: "demo-vh-abc"
      },
      serialNumber: "A-1734",
      state: "installed",
      status: "active",
      totals: {
        hours: 211.3,
        hoursSinceInspection: 211.3
      },
      type: "Rotor blade",
      uid: "cmp_demo_blade",
      updatedAt: "2026-11-23T16:19:49.542Z"
    }
  },
  createComponent: {
    body: {
      name: "Tail rotor blade",
      type: "Rotor blade",
      partNumber: "206-016-201-131",
      serialNumber: "TR-4471",
      manufacturer: "Bell",
      location: "Hangar 2, rack B",
      counters: [
        {
          displayText: "Hours",
          unit: "hours"
        },
        {
          displayText: "Hours since overhaul",
          unit: "hours",
          basis: "sinceEvent"
        }
      ]
    },
    response: {
      status: "created",
      uid: "cmp_01k84j9oqmdf8mkrdpks"
    }
  },
  updateComponent: {
    params: {
      id: "cmp_demo_blade"
    },
    body: {
      notes: "Leading-edge tape renewed",
      condition: "serviceable"
    },
    response: {
      status: "updated",
      uid: "cmp_demo_blade"
    }
  },
  deleteComponent: {
    params: {
      id: "cmp_demo_starter"
    },
    response: {
      status: "deleted",
      uid: "cmp_demo_starter"
    }
  },
  restoreComponent: {
    params: {
      id: "cmp_demo_old_battery"
    },
    response: {
      status: "restored",
      uid: "cmp_demo_old_battery"
    }
  },
  installComponent: {
    params: {
      id: "cmp_demo_spare_blade"
    },
    body: {
      parentType: "aircraft",
      parentUid: "demo-vh-abc",
      mappings: [
        {
          counterKey: "hours",
          sourceKey: "hobbs"
        }
      ]
    },
    response: {
      status: "installed",
      uid: "cmp_demo_spare_blade"
    }
  },
  removeComponent: {
    params: {
      id: "cmp_demo_radio"
    },
    body: {
      state: "inRepair",
      location: "Avionics workshop",
      condition: "intermittent transmit"
    },
    response: {
      status: "removed",
      uid: "cmp_demo_radio"
    }
  },
  getInheritableSources: {
    params: {
      id: "cmp_demo_spare_blade"
    },
    query: {
      parentType: "aircraft",
      parentUid: "demo-vh-abc"
    },
    response: {
      parentName: "VH-ABC",
      sources: [
        {
          basis: "sinceNew",
          currentValue: 1411.8,
          displayText: "Hobbs",
          key: "hobbs",
          precision: 1,
          unit: "hours"
        },
        {
          basis: "sinceNew",
          currentValue: 3670,
          displayText: "Landings",
          key: "landings",
          precision: 0,
          unit: "landings"
        }
      ]
    }
  },
  resetComponentCounter: {
    params: {
      id: "cmp_demo_blade"
    },
    body: {
      counterKey: "hoursSinceInspection",
      newValue: 0
    },
    response: {
      status: "updated",
      uid: "cmp_demo_blade"
    }
  },
  listVehicles: {
    response: {
      data: [
        {
          companyId: "demo",
          createdAt: "2026-11-23T16:19:55.807Z",
          fuelType: "diesel",
          initialValues: {
            odometer: 48210
          },
          logTrackingItems: {},
          maintenanceTrackingItems: {
            odometer: {
              type: "number",
              precision: 0,
              displayText: "Odometer (km)"
            }
          },
          make: "Toyota",
          model: "Hilux",
          registration: "DEMO01",
          status: "active",
          totals: {
            odometer: 48530
          },
          tracking: {
            hours: false,
            miles: false,
            kilometers: true
          },
          transmissionType: "automatic",
          uid: "demo-ute",
          updatedAt: "2026-11-23T16:19:56.357Z",
          year: 2022
        },
        {
          companyId: "demo",
          createdAt: "2026-11-23T16:19:55.809Z",
          fuelType: "diesel",
          initialValues: {
            hours: 3120
          },
          logTrackingItems: {},
          maintenanceTrackingItems: {
            hours: {
              type: "number",
              precision: 1,
              displayText: "Hours"
            }
          },
          make: "Isuzu",
          model: "NPR",
          registration: "DEMO02",
          status: "active",
          totals: {
            hours: 3120
          },
          tracking: {
            hours: true,
            miles: false,
            kilometers: false
          },
          uid: "demo-fuel-truck",
          updatedAt: "2026-11-23T16:19:55.809Z"
        },
        {
          companyId: "demo",
          createdAt: "2026-11-23T16:19:55.812Z",
          initialValues: {},
          logTrackingItems: {},
          maintenanceTrackingItems: {
            odometer: {
              type: "number",
              precision: 0,
              displayText: "Odometer (km)"
            }
          },
          make: "Brian James",
          model: "Cargo Master",
          registration: "DEMO03",
          status: "active",
          totals: {
            odometer: 0
          },
          tracking: {
            hours: false,
            miles: false,
            kilometers: true
          },
          uid: "demo-trailer",
          updatedAt: "2026-11-23T16:19:55.812Z",
          year: 2019
        }
      ],
      count: 3
    }
  },
  getVehicle: {
    params: {
      id: "demo-ute"
    },
    response: {
      companyId: "demo",
      createdAt: "2026-11-23T16:19:56.894Z",
      fuelType: "diesel",
      initialValues: {
        odometer: 48210
      },
      logTrackingItems: {},
      maintenanceTrackingItems: {
        odometer: {
          type: "number",
          precision: 0,
          displayText: "Odometer (km)"
        }
      },
      make: "Toyota",
      model: "Hilux",
      registration: "DEMO01",
      status: "active",
      totals: {
        odometer: 48530
      },
      tracking: {
        hours: false,
        miles: false,
        kilometers: true
      },
      transmissionType: "automatic",
      uid: "demo-ute",
      updatedAt: "2026-11-23T16:19:57.499Z",
      year: 2022
    }
  },
  createVehicle: {
    body: {
      make: "Ford",
      model: "Ranger",
      registration: "DEMO05",
      year: 2024,
      fuelType: "diesel",
      transmissionType: "automatic",
      tracking: {
        kilometers: true,
        miles: false,
        hours: false
      },
      totals: {
        odometer: 1250
      }
    },
    response: {
      status: "created",
      uid: "vh_01k84ja16km0qtj64kne"
    }
  },
  batchCreateVehicles: {
    body: {
      items: [
        {
          make: "Toyota",
          model: "Land Cruiser",
          registration: "DEMO06",
          year: 2021,
          fuelType: "diesel",
          tracking: {
            kilometers: true,
            miles: false,
            hours: false
          },
          totals: {
            odometer: 64120
          }
        },
        {
          make: "Honda",
          model: "EU22i generator",
          registration: "GEN-01",
          tracking: {
            kilometers: false,
            miles: false,
            hours: true
          },
          totals: {
            hours: 310
          }
        }
      ]
    },
    response: {
      errors: [],
      results: [
        {
          status: "created",
          uid: "vh_01k84ja266kqhqluuru2"
        },
        {
          status: "created",
          uid: "vh_01k84ja266iulrlipvsc"
        }
      ]
    }
  },
  updateVehicle: {
    params: {
      id: "demo-fuel-truck"
    },
    body: {
      location: "Bankstown fuel farm",
      color: "white"
    },
    response: {
      status: "updated",
      uid: "demo-fuel-truck"
    }
  },
  deleteVehicle: {
    params: {
      id: "demo-trailer"
    },
    response: {
      status: "deleted",
      uid: "demo-trailer"
    }
  },
  restoreVehicle: {
    params: {
      id: "demo-old-van"
    },
    response: {
      status: "restored",
      uid: "demo-old-van"
    }
  },
  listScheduleItems: {
    query: {
      relatedTo: "demo-vh-xyz"
    },
    response: {
      data: [
        {
          archivedDocumentation: [],
          calendarDateDue: "2026-11-21T00:00:00.000Z",
          calendarRecurring: 365,
          companyId: "demo",
          createdAt: "2026-11-23T16:20:04.250Z",
          documentation: [],
          name: "Annual inspection",
          notes: "Book the hangar slot with the maintenance organisation",
          recurring: true,
          relatedTo: "demo-vh-xyz",
          relatedToType: "aircraft",
          status: "active",
          type: "Inspection",
          uid: "si_demo_annual",
          updatedAt: "2026-11-23T16:20:04.250Z"
        },
        {
          archivedDocumentation: [],
          companyId: "demo",
          createdAt: "2026-11-23T16:20:04.263Z",
          documentation: [],
          dueAtInterval: 6194.22,
          name: "Engine overhaul",
          recurring: false,
          relatedTo: "demo-vh-xyz",
          relatedToType: "aircraft",
          status: "active",
          trackingItem: "tacho",
          type: "Overhaul",
          uid: "si_demo_overhaul",
          updatedAt: "2026-11-23T16:20:04.263Z"
        }
      ],
      count: 2
    }
  },
  getScheduleItem: {
    params: {
      id: "si_demo_annual"
    },
    response: {
      archivedDocumentation: [],
      calendarDateDue: "2026-11-21T00:00:00.000Z",
      calendarRecurring: 365,
      companyId: "demo",
      createdAt: "2026-11-23T16:20:05.321Z",
      documentation: [],
      name: "Annual inspection",
      notes: "Book the hangar slot with the maintenance organisation",
      recurring: true,
      relatedTo: "demo-vh-xyz",
      relatedToType: "aircraft",
      status: "active",
      type: "Inspection",
      uid: "si_demo_annual",
      updatedAt: "2026-11-23T16:20:05.321Z"
    }
  },
  createScheduleItem: {
    body: {
      name: "Magneto inspection",
      type: "Inspection",
      relatedTo: "demo-vh-xyz",
      relatedToType: "aircraft",
      recurring: true,
      trackingItem: "tacho",
      dueAtInterval: 4700,
      recurringInterval: 500,
      notes: "Per the engine maintenance manual"
    },
    response: {
      status: "created",
      uid: "si_01k84ja84mm0agv6sob2"
    }
  },
  updateScheduleItem: {
    params: {
      id: "si_demo_annual"
    },
    body: {
      notes: "Hangar slot booked for Monday"
    },
    response: {
      status: "updated",
      uid: "si_demo_annual"
    }
  },
  deleteScheduleItem: {
    params: {
      id: "si_demo_extinguishers"
    },
    response: {
      status: "deleted",
      uid: "si_demo_extinguishers"
    }
  },
  restoreScheduleItem: {
    params: {
      id: "si_demo_retired"
    },
    response: {
      status: "restored",
      uid: "si_demo_retired"
    }
  },
  completeScheduleItem: {
    params: {
      id: "si_demo_100h"
    },
    body: {
      notes: "Completed per the 100-hourly checklist",
      documents: [
        "https://files.demo.fleetops.test/work-orders/wo-1042.pdf"
      ]
    },
    response: {
      status: "created",
      uid: "sc_01k84jaadn197jan67p3"
    }
  },
  listScheduleCompletions: {
    query: {
      relatedTo: "demo-vh-abc"
    },
    response: {
      data: [
        {
          companyId: "demo",
          completedAt: "2026-11-03T13:00:00.000Z",
          createdAt: "2026-11-23T16:20:09.132Z",
          documents: [],
          notes: "Done after the last flight of the day",
          scheduleItemId: "si_demo_wash",
          uid: "sc_demo_wash",
          updatedAt: "2026-11-23T16:20:09.132Z",
          userDisplayName: "Olivia Owner",
          userId: "demo-owner"
        }
      ],
      count: 1,
      nextCursor: null
    }
  },
  getMaintenanceStatus: {
    query: {
      dueWithinDays: "30"
    },
    response: {
      data: [
        {
          calendarDateDue: "2026-11-21T00:00:00.000Z",
          calendarDaysRemaining: -3,
          name: "Annual inspection",
          recurring: true,
          relatedTo: "demo-vh-xyz",
          relatedToType: "aircraft",
          scheduleItemUid: "si_demo_annual",
          status: "active",
          type: "Inspection"
        },
        {
          calendarDateDue: "2026-11-24T00:00:00.000Z",
          calendarDaysRemaining: 0,
          name: "Defect: Left indicator lens cracked",
          recurring: false,
          relatedTo: "demo-ute",
          relatedToType: "vehicle",
          scheduleItemUid: "si_demo_defect",
          status: "active",
          type: "Defect"
        },
        {
          calendarDateDue: "2026-12-04T00:00:00.000Z",
          calendarDaysRemaining: 10,
          lastCarriedOutDate: "2026-11-03T13:00:00.000Z",
          name: "Compressor wash",
          recurring: true,
          relatedTo: "demo-vh-abc",
          relatedToType: "aircraft",
          scheduleItemUid: "si_demo_wash",
          status: "active",
          type: "Service"
        },
        {
          calendarDateDue: "2026-12-04T00:00:00.000Z",
          calendarDaysRemaining: 10,
          name: "Registration renewal",
          recurring: true,
          relatedTo: "demo-ute",
          relatedToType: "vehicle",
          scheduleItemUid: "si_demo_rego",
          status: "active",
          type: "Registration"
        }
      ],
      count: 4
    }
  },
  getFormFieldSchema: {
    response: {
      baseFieldProperties: {
        name: {
          type: "string",
          pattern: "^[A-Za-z][A-Za-z0-9_-]{0,99}$",
          description: "Unique within the form; the answer key",
          required: true
        },
        label: {
          type: "string",
          minLength: 1,
          maxLength: 500,
          description: "Shown to the person filling the form",
          required: true
        },
        required: {
          default: false,
          description: "An answer is required",
          type: "boolean",
          required: false
        },
        description: {
          description: "Help text",
          type: "string",
          maxLength: 5000,
          required: false
        },
        placeholder: {
          type: "string",
          maxLength: 500,
          required: false
        },
        companions: {
          description: "Extra values answered with the field (e.g. a comment), keyed <name>__<companion>",
          maxItems: 10,
          type: "array",
          items: {
            type: "object",
            properties: {
              name: {
                type: "string",
                pattern: "^[A-Za-z][A-Za-z0-9_-]{0,99}$"
              },
              label: {
                type: "string",
                maxLength: 500
              },
              type: {
                default: "text",
                type: "string",
                enum: [
                  "text",
                  "textarea",
                  "number",
                  "boolean",
                  "photo"
                ]
              }
            },
            required: [
              "name"
            ],
            additionalProperties: false
          },
          required: false
        },
        ui: {
          description: "UI-specific settings, kept as sent",
          type: "object",
          propertyNames: {
            type: "string"
          },
          additionalProperties: {},
          required: false
        },
        type: {
          type: "string",
          enum: [
            "text",
            "textarea",
            "number",
            "boolean",
            "select",
            "multiselect",
            "checklist",
            "date",
            "time",
            "datetime",
            "signature",
            "file",
            "photo",
            "aircraft",
            "vehicle",
            "user",
            "odometer",
            "defect"
          ],
          description: "One of fieldTypes",
          required: true
        }
      },
      sectionShape: {
        name: {
          type: "string",
          minLength: 1,
          maxLength: 500,
          description: "Section title",
          required: true
        },
        description: {
          type: "string",
          maxLength: 5000,
          required: false
        },
        fields: {
          maxItems: 500,
          type: "array",
          items: {},
          description: "Field objects (see fieldTypes)",
          required: true
        }
      },
      fieldTypes: {
        text: {
          description: "One line of text",
          answerFormat: "string",
          properties: {
            maxLength: {
              description: "Longest answer (default 10000)",
              type: "integer",
              minimum: 1,
              maximum: 10000,
              required: false
            }
          }
        },
        textarea: {
          description: "Several lines of text",
          answerFormat: "string",
          properties: {
            maxLength: {
              description: "Longest answer (default 10000)",
              type: "integer",
              minimum: 1,
              maximum: 10000,
              required: false
            }
          }
        },
        number: {
          description: "A number",
          answerFormat: "number",
          properties: {
            min: {
              description: "Smallest allowed answer",
              type: "number",
              required: false
            },
            max: {
              description: "Largest allowed answer",
              type: "number",
              required: false
            },
            precision: {
              description: "Decimal places allowed",
              type: "integer",
              minimum: 0,
              maximum: 6,
              required: false
            }
          }
        },
        boolean: {
          description: "Yes or no",
          answerFormat: "boolean",
          properties: {}
        },
        select: {
          description: "One of the options",
          answerFormat: "string",
          properties: {
            options: {
              minItems: 1,
              maxItems: 500,
              type: "array",
              items: {
                type: "string",
                minLength: 1,
                maxLength: 500
              },
              description: "The allowed answers",
              required: true
            }
          }
        },
        multiselect: {
          description: "Any of the options (an array, each at most once)",
          answerFormat: "array",
          properties: {
            options: {
              minItems: 1,
              maxItems: 500,
              type: "array",
              items: {
                type: "string",
                minLength: 1,
                maxLength: 500
              },
              description: "The allowed answers",
              required: true
            }
          }
        },
        checklist: {
          description: "A checklist item: one of the options (default pass, fail, n/a), usually with a comment companion",
          answerFormat: "string",
          properties: {
            options: {
              minItems: 1,
              maxItems: 500,
              type: "array",
              items: {
                type: "string",
                minLength: 1,
                maxLength: 500
              },
              description: "The allowed answers",
              required: false
            }
          }
        },
        date: {
          description: "A calendar date, YYYY-MM-DD",
          answerFormat: "string",
          properties: {}
        },
        time: {
          description: "A time of day, HH:MM or HH:MM:SS",
          answerFormat: "string",
          properties: {}
        },
        datetime: {
          description: "An ISO 8601 date-time with Z or an offset",
          answerFormat: "string",
          properties: {}
        },
        signature: {
          description: "A signature image reference (URL or id); an array of them with multiple",
          answerFormat: "file",
          properties: {
            multiple: {
              description: "Several files (an array)",
              type: "boolean",
              required: false
            }
          }
        },
        file: {
          description: "A file reference (URL or id); an array of them with multiple",
          answerFormat: "file",
          properties: {
            multiple: {
              description: "Several files (an array)",
              type: "boolean",
              required: false
            }
          }
        },
        photo: {
          description: "A photo reference (URL or id); an array of them with multiple",
          answerFormat: "file",
          properties: {
            multiple: {
              description: "Several files (an array)",
              type: "boolean",
              required: false
            }
          }
        },
        aircraft: {
          description: "The uid of an aircraft of the company",
          answerFormat: "string",
          properties: {},
          references: "aircraft"
        },
        vehicle: {
          description: "The uid of a vehicle of the company",
          answerFormat: "string",
          properties: {},
          references: "vehicle"
        },
        user: {
          description: "The uid of a user of the company",
          answerFormat: "string",
          properties: {},
          references: "user"
        },
        odometer: {
          description: "A reading of the vehicle's primary total (odometer or hours); raises it when higher",
          answerFormat: "number",
          properties: {
            vehicleField: {
              type: "string",
              description: "Name of a vehicle field in the same form",
              required: true
            },
            min: {
              description: "Smallest allowed answer",
              type: "number",
              required: false
            },
            max: {
              description: "Largest allowed answer",
              type: "number",
              required: false
            },
            precision: {
              description: "Decimal places allowed",
              type: "integer",
              minimum: 0,
              maximum: 6,
              required: false
            }
          }
        },
        defect: {
          description: "A defect {description, severity?} or an array of them; each creates a Defect schedule item on the asset",
          answerFormat: "object",
          properties: {
            assetField: {
              type: "string",
              description: "Name of an aircraft or vehicle field in the same form",
              required: true
            }
          }
        }
      },
      companionTypes: [
        "text",
        "textarea",
        "number",
        "boolean",
        "photo"
      ],
      storageKeys: "Field fi of section si is answered as its name or as __s{si}_f{fi}; a companion c as <name>__c or __s{si}_f{fi}__c"
    }
  },
  listForms: {
    response: {
      data: [
        {
          code: "daily-vehicle-check",
          companyId: "demo",
          createdAt: "2026-11-23T16:20:11.063Z",
          department: "Ground operations",
          dynamicFields: [],
          name: "Daily vehicle inspection",
          notification: true,
          notificationRecipients: [
            {
              name: "Ops desk",
              email: "ops@demo.fleetops.test"
            }
          ],
          publiclyAvailable: false,
          revision: 1,
          revisionDate: "2026-11",
          sections: [
            {
              name: "Vehicle",
              fields: [
                {
                  name: "vehicle",
                  type: "vehicle",
                  label: "Vehicle",
                  required: true
                },
                {
                  name: "odometer",
                  type: "odometer",
                  label: "Odometer reading",
                  required: true,
                  precision: 0,
                  vehicleField: "vehicle"
                },
                {
                  name: "fuelLevel",
                  type: "select",
                  label: "Fuel level",
                  options: [
                    "full",
                    "3/4",
                    "1/2",
                    "1/4",
                    "reserve"
                  ],
                  required: true
                }
              ]
            },
            {
              name: "Walk-around checks",
              fields: [
                {
                  name: "tyres",
                  type: "checklist",
                  label: "Tyres and wheel nuts",
                  required: true,
                  companions: [
                    {
                      name: "comment",
                      type: "text",
                      label: "Comment"
                    }
                  ]
                },
                {
                  name: "lights",
                  type: "checklist",
                  label: "Lights and indicators",
                  required: true,
                  companions: [
                    {
                      name: "comment",
                      type: "text",
                      label: "Comment"
                    }
                  ]
                },
                {
                  name: "brakes",
                  type: "checklist",
                  label: "Brakes",
                  required: true,
                  companions: [
                    {
                      name: "comment",
                      type: "text",
                      label: "Comment"
                    }
                  ]
                },
                {
                  name: "fluids",
                  type: "checklist",
                  label: "Oil, coolant and washer fluid",
                  required: true,
                  companions: [
                    {
                      name: "comment",
                      type: "text",
                      label: "Comment"
                    }
                  ]
                },
                {
                  name: "mirrors",
                  type: "checklist",
                  label: "Mirrors and windscreen",
                  required: true,
                  companions: [
                    {
                      name: "comment",
                      type: "text",
                      label: "Comment"
                    }
                  ]
                },
                {
                  name: "firstAid",
                  type: "checklist",
                  label: "First-aid kit and extinguisher",
                  required: true,
                  companions: [
                    {
                      name: "comment",
                      type: "text",
                      label: "Comment"
                    }
                  ]
                }
              ],
              description: "Pass, fail or n/a; add a comment for anything not a pass."
            },
            {
              name: "Defects and sign-off",
              fields: [
                {
                  name: "defects",
                  type: "defect",
                  label: "Defects found",
                  required: false,
                  assetField: "vehicle",
                  description: "Each defect is added to the vehicle’s maintenance schedule"
                },
                {
                  name: "photos",
                  type: "photo",
                  label: "Photos",
                  multiple: true,
                  required: false
                },
                {
                  name: "fitForService",
                  type: "boolean",
                  label: "Vehicle is fit for service",
                  required: true
                },
                {
                  name: "signature",
                  type: "signature",
                  label: "Driver signature",
                  required: true
                }
              ]
            }
          ],
          signatories: [
            "Driver"
          ],
          status: "active",
          toolset: "vehicles",
          uid: "demo-form-daily",
          updatedAt: "2026-11-23T16:20:11.063Z",
          webhooks: []
        }
      ],
      count: 1
    }
  },
  getForm: {
    params: {
      id: "demo-form-daily"
    },
    response: {
      code: "daily-vehicle-check",
      companyId: "demo",
      createdAt: "2026-11-23T16:20:11.863Z",
      department: "Ground operations",
      dynamicFields: [],
      name: "Daily vehicle inspection",
      notification: true,
      notificationRecipients: [
        {
          name: "Ops desk",
          email: "ops@demo.fleetops.test"
        }
      ],
      publiclyAvailable: false,
      revision: 1,
      revisionDate: "2026-11",
      sections: [
        {
          name: "Vehicle",
          fields: [
            {
              name: "vehicle",
              type: "vehicle",
              label: "Vehicle",
              required: true
            },
            {
              name: "odometer",
              type: "odometer",
              label: "Odometer reading",
              required: true,
              precision: 0,
              vehicleField: "vehicle"
            },
            {
              name: "fuelLevel",
              type: "select",
              label: "Fuel level",
              options: [
                "full",
                "3/4",
                "1/2",
                "1/4",
                "reserve"
              ],
              required: true
            }
          ]
        },
        {
          name: "Walk-around checks",
          fields: [
            {
              name: "tyres",
              type: "checklist",
              label: "Tyres and wheel nuts",
              required: true,
              companions: [
                {
                  name: "comment",
                  type: "text",
                  label: "Comment"
                }
              ]
            },
            {
              name: "lights",
              type: "checklist",
              label: "Lights and indicators",
              required: true,
              companions: [
                {
                  name: "comment",
                  type: "text",
                  label: "Comment"
                }
              ]
            },
            {
              name: "brakes",
              type: "checklist",
              label: "Brakes",
              required: true,
              companions: [
                {
                  name: "comment",
                  type: "text",
                  label: "Comment"
                }
              ]
            },
            {
              name: "fluids",
              type: "checklist",
              label: "Oil, coolant and washer fluid",
              required: true,
              companions: [
                {
                  name: "comment",
                  type: "text",
                  label: "Comment"
                }
              ]
            },
            {
              name: "mirrors",
              type: "checklist",
              label: "Mirrors and windscreen",
              required: true,
              companions: [
                {
                  name: "comment",
                  type: "text",
                  label: "Comment"
                }
              ]
            },
            {
              name: "firstAid",
              type: "checklist",
              label: "First-aid kit and extinguisher",
              required: true,
              companions: [
                {
                  name: "comment",
                  type: "text",
                  label: "Comment"
                }
              ]
            }
          ],
          description: "Pass, fail or n/a; add a comment for anything not a pass."
        },
        {
          name: "Defects and sign-off",
          fields: [
            {
              name: "defects",
              type: "defect",
              label: "Defects found",
              required: false,
              assetField: "vehicle",
              description: "Each defect is added to the vehicle’s maintenance schedule"
            },
            {
              name: "photos",
              type: "photo",
              label: "Photos",
              multiple: true,
              required: false
            },
            {
              name: "fitForService",
              type: "boolean",
              label: "Vehicle is fit for service",
              required: true
            },
            {
              name: "signature",
              type: "signature",
              label: "Driver signature",
              required: true
            }
          ]
        }
      ],
      signatories: [
        "Driver"
      ],
      status: "active",
      toolset: "vehicles",
      uid: "demo-form-daily",
      updatedAt: "2026-11-23T16:20:11.863Z",
      webhooks: []
    }
  },
  createForm: {
    body: {
      name: "Pre-flight check",
      code: "pre-flight-check",
      department: "Flight operations",
      toolset: "aircraft",
      revision: 1,
      sections: [
        {
          name: "Aircraft",
          fields: [
            {
              name: "aircraft",
              label: "Aircraft",
              type: "aircraft",
              required: true
            },
            {
              name: "fuelOnBoard",
              label: "Fuel on board (L)",
              type: "number",
              required: true,
              min: 0
            }
          ]
        },
        {
          name: "Checks",
          fields: [
            {
              name: "walkAround",
              label: "Walk-around",
              type: "checklist",
              required: true
            },
            {
              name: "defects",
              label: "Defects found",
              type: "defect",
              assetField: "aircraft"
            }
          ]
        }
      ]
    },
    response: {
      status: "created",
      uid: "fm_01k84jae8j8jft4fbg47"
    }
  },
  updateForm: {
    params: {
      id: "demo-form-daily"
    },
    body: {
      department: "Ground operations and fuel"
    },
    response: {
      status: "updated",
      uid: "demo-form-daily"
    }
  },
  getFormCompletionSchema: {
    params: {
      id: "demo-form-daily"
    },
    response: {
      formId: "demo-form-daily",
      code: "daily-vehicle-check",
      name: "Daily vehicle inspection",
      revision: 1,
      status: "active",
      fields: [
        {
          name: "vehicle",
          key: "__s0_f0",
          label: "Vehicle",
          type: "vehicle",
          format: "string",
          required: true,
          section: "Vehicle",
          references: "vehicle",
          maxLength: 128
        },
        {
          name: "odometer",
          key: "__s0_f1",
          label: "Odometer reading",
          type: "odometer",
          format: "number",
          required: true,
          section: "Vehicle",
          min: 0,
          precision: 0,
          vehicleField: "vehicle"
        },
        {
          name: "fuelLevel",
          key: "__s0_f2",
          label: "Fuel level",
          type: "select",
          format: "string",
          required: true,
          section: "Vehicle",
          enum: [
            "full",
            "3/4",
            "1/2",
            "1/4",
            "reserve"
          ]
        },
        {
          name: "tyres",
          key: "__s1_f0",
          label: "Tyres and wheel nuts",
          type: "checklist",
          format: "string",
          required: true,
          section: "Walk-around checks",
          enum: [
            "pass",
            "fail",
            "n/a"
          ]
        },
        {
          name: "tyres__comment",
          key: "__s1_f0__comment",
          label: "Comment",
          type: "companion:text",
          format: "string",
          required: false,
          section: "Walk-around checks",
          companionOf: "tyres",
          maxLength: 10000
        },
        {
          name: "lights",
          key: "__s1_f1",
          label: "Lights and indicators",
          type: "checklist",
          format: "string",
          required: true,
          section: "Walk-around checks",
          enum: [
            "pass",
            "fail",
            "n/a"
          ]
        },
        {
          name: "lights__comment",
          key: "__s1_f1__comment",
          label: "Comment",
          type: "companion:text",
          format: "string",
          required: false,
          section: "Walk-around checks",
          companionOf: "lights",
          maxLength: 10000
        },
        {
          name: "brakes",
          key: "__s1_f2",
          label: "Brakes",
          type: "checklist",
          format: "string",
          required: true,
          section: "Walk-around checks",
          enum: [
            "pass",
            "fail",
            "n/a"
          ]
        },
        {
          name: "brakes__comment",
          key: "__s1_f2__comment",
          label: "Comment",
          type: "companion:text",
          format: "string",
          required: false,
          section: "Walk-around checks",
          companionOf: "brakes",
          maxLength: 10000
        },
        {
          name: "fluids",
          key: "__s1_f3",
          label: "Oil, coolant and washer fluid",
          type: "checklist",
          format: "string",
          required: true,
          section: "Walk-around checks",
          enum: [
            "pass",
            "fail",
            "n/a"
          ]
        },
        {
          name: "fluids__comment",
          key: "__s1_f3__comment",
          label: "Comment",
          type: "companion:text",
          format: "string",
          required: false,
          section: "Walk-around checks",
          companionOf: "fluids",
          maxLength: 10000
        },
        {
          name: "mirrors",
          key: "__s1_f4",
          label: "Mirrors and windscreen",
          type: "checklist",
          format: "string",
          required: true,
          section: "Walk-around checks",
          enum: [
            "pass",
            "fail",
            "n/a"
          ]
        },
        {
          name: "mirrors__comment",
          key: "__s1_f4__comment",
          label: "Comment",
          type: "companion:text",
          format: "string",
          required: false,
          section: "Walk-around checks",
          companionOf: "mirrors",
          maxLength: 10000
        },
        {
          name: "firstAid",
          key: "__s1_f5",
          label: "First-aid kit and extinguisher",
          type: "checklist",
          format: "string",
          required: true,
          section: "Walk-around checks",
          enum: [
            "pass",
            "fail",
            "n/a"
          ]
        },
        {
          name: "firstAid__comment",
          key: "__s1_f5__comment",
          label: "Comment",
          type: "companion:text",
          format: "string",
          required: false,
          section: "Walk-around checks",
          companionOf: "firstAid",
          maxLength: 10000
        },
        {
          name: "defects",
          key: "__s2_f0",
          label: "Defects found",
          type: "defect",
          format: "object",
          required: false,
          section: "Defects and sign-off",
          assetField: "vehicle"
        },
        {
          name: "photos",
          key: "__s2_f1",
          label: "Photos",
          type: "photo",
          format: "file",
          required: false,
          section: "Defects and sign-off",
          multiple: true
        },
        {
          name: "fitForService",
          key: "__s2_f2",
          label: "Vehicle is fit for service",
          type: "boolean",
          format: "boolean",
          required: true,
          section: "Defects and sign-off"
        },
        {
          name: "signature",
          key: "__s2_f3",
          label: "Driver signature",
          type: "signature",
          format: "file",
          required: true,
          section: "Defects and sign-off",
          maxLength: 2048
        }
      ]
    }
  },
  listFormCompletions: {
    query: {
      formId: "demo-form-daily",
      limit: "2"
    },
    response: {
      data: [
        {
          code: "daily-vehicle-check",
          companyId: "demo",
          createdAt: "2026-11-23T16:20:14.149Z",
          data: {
            tyres: "pass",
            brakes: "pass",
            fluids: "pass",
            lights: "fail",
            defects: {
              severity: "medium",
              description: "Left indicator lens cracked"
            },
            mirrors: "pass",
            vehicle: "demo-ute",
            firstAid: "pass",
            odometer: 48530,
            fuelLevel: "3/4",
            signature: "https://files.demo.fleetops.test/signatures/dana-2.png",
            fitForService: true,
            lights__comment: "Left indicator lens cracked"
          },
          formId: "demo-form-daily",
          name: "Daily vehicle inspection",
          revision: 1,
          revisionDate: "2026-11",
          sideEffects: {
            scheduleItemsCreated: 1,
            vehiclesUpdated: 1,
            warnings: []
          },
          signatories: [],
          submitterName: "Dana Driver",
          uid: "fc_demo_defect",
          updatedAt: "2026-11-23T16:20:14.176Z",
          userId: "demo-driver"
        },
        {
          code: "daily-vehicle-check",
          companyId: "demo",
          createdAt: "2026-11-23T16:20:14.127Z",
          data: {
            tyres: "pass",
            brakes: "pass",
            fluids: "pass",
            lights: "pass",
            mirrors: "pass",
            vehicle: "demo-ute",
            firstAid: "pass",
            odometer: 48452,
            fuelLevel: "full",
            signature: "https://files.demo.fleetops.test/signatures/dana-1.png",
            fitForService: true
          },
          formId: "demo-form-daily",
          name: "Daily vehicle inspection",
          revision: 1,
          revisionDate: "2026-11",
          sideEffects: {
            scheduleItemsCreated: 0,
            vehiclesUpdated: 1,
            warnings: []
          },
          signatories: [],
          submitterName: "Dana Driver",
          uid: "fc_demo_clean",
          updatedAt: "2026-11-23T16:20:14.136Z",
          userId: "demo-driver"
        }
      ],
      count: 2,
      nextCursor: null
    }
  },
  getFormCompletion: {
    params: {
      id: "fc_demo_defect"
    },
    response: {
      code: "daily-vehicle-check",
      companyId: "demo",
      createdAt: "2026-11-23T16:20:14.559Z",
      data: {
        tyres: "pass",
        brakes: "pass",
        fluids: "pass",
        lights: "fail",
        defects: {
          severity: "medium",
          description: "Left indicator lens cracked"
        },
        mirrors: "pass",
        vehicle: "demo-ute",
        firstAid: "pass",
        odometer: 48530,
        fuelLevel: "3/4",
        signature: "https://files.demo.fleetops.test/signatures/dana-2.png",
        fitForService: true,
        lights__comment: "Left indicator lens cracked"
      },
      formId: "demo-form-daily",
      name: "Daily vehicle inspection",
      revision: 1,
      revisionDate: "2026-11",
      sideEffects: {
        scheduleItemsCreated: 1,
        vehiclesUpdated: 1,
        warnings: []
      },
      signatories: [],
      submitterName: "Dana Driver",
      uid: "fc_demo_defect",
      updatedAt: "2026-11-23T16:20:14.571Z",
      userId: "demo-driver"
    }
  },
  createFormCompletion: {
    body: {
      formId: "demo-form-daily",
      submitterName: "Dana Driver",
      answers: {
        vehicle: "demo-ute",
        odometer: 48610,
        fuelLevel: "1/2",
        tyres: "pass",
        lights: "pass",
        brakes: "pass",
        fluids: "pass",
        mirrors: "pass",
        firstAid: "pass",
        fitForService: true,
        signature: "https://files.demo.fleetops.test/signatures/dana-3.png"
      }
    },
    response: {
      sideEffects: {
        scheduleItemsCreated: 0,
        vehiclesUpdated: 1,
        warnings: []
      },
      status: "created",
      uid: "fc_01k84jagf4k911nshdtl"
    }
  },
  aggregate: {
    body: {
      collection: "flightLogs",
      metric: "hobbs",
      operation: "sum",
      dateField: "timeDate",
      dateGroup: "month",
      timezone: "Australia/Sydney",
      filters: {
        aircraftId: "demo-vh-abc"
      }
    },
    response: {
      results: [
        {
          count: 5,
          group: "all",
          period: "2025-11",
          value: 5.5
        },
        {
          count: 20,
          group: "all",
          period: "2025-12",
          value: 24.3
        },
        {
          count: 20,
          group: "all",
          period: "2026-01",
          value: 20.8
        },
        {
          count: 16,
          group: "all",
          period: "2026-02",
          value: 15.6
        },
        {
          count: 15,
          group: "all",
          period: "2026-03",
          value: 16.6
        },
        {
          count: 13,
          group: "all",
          period: "2026-04",
          value: 12.8
        },
        {
          count: 17,
          group: "all",
          period: "2026-05",
          value: 20.1
        },
        {
          count: 14,
          group: "all",
          period: "2026-06",
          value: 12.9
        },
        {
          count: 22,
          group: "all",
          period: "2026-07",
          value: 21.6
        },
        {
          count: 19,
          group: "all",
          period: "2026-08",
          value: 19.2
        },
        {
          count: 14,
          group: "all",
          period: "2026-09",
          value: 14.4
        },
        {
          count: 11,
          group: "all",
          period: "2026-10",
          value: 13.4
        },
        {
          count: 15,
          group: "all",
          period: "2026-11",
          value: 14.1
        }
      ],
      totalCount: 201,
      totals: {
        all: 211.3
      },
      params: {
        collection: "flightLogs",
        dateGroup: "month",
        dateRange: {
          end: null,
          start: null
        },
        groupBy: null,
        metric: "hobbs",
        operation: "sum",
        timezone: "Australia/Sydney"
      }
    }
  },
  listFormDeliveries: {
    params: {
      id: "demo-form-daily"
    },
    response: {
      data: [
        {
          channel: "email",
          completionId: "fc_demo_defect",
          createdAt: "2026-11-23T16:20:15.729Z",
          formId: "demo-form-daily",
          messageId: "dl_demo_defect",
          status: "pending",
          target: "ops@demo.fleetops.test",
          uid: "dl_demo_defect"
        },
        {
          channel: "email",
          completionId: "fc_demo_clean",
          createdAt: "2026-11-23T16:20:15.713Z",
          formId: "demo-form-daily",
          messageId: "dl_demo_clean",
          status: "pending",
          target: "ops@demo.fleetops.test",
          uid: "dl_demo_clean"
        }
      ],
      count: 2,
      nextCursor: null
    }
  },
  resendDelivery: {
    params: {
      id: "dl_demo_defect"
    },
    response: {
      status: "pending",
      uid: "dl_01k84jahocpslld9ikp3"
    }
  },
  createAircraft: {
    body: {
      registration: "VH-NEW",
      type: "R44",
      category: "rotary-wing",
      manufacturer: "Robinson",
      model: "R44 Raven II",
      engineType: "piston",
      engineCount: 1,
      maintenanceTrackingItems: {
        hobbs: { displayText: "Hobbs", type: "number", precision: 1 },
        landings: { displayText: "Landings", type: "number", precision: 0 }
      },
      logTrackingItems: {
        fuelUplift: { displayText: "Fuel uplift (L)", type: "number" }
      },
      initialValues: { hobbs: 842.3, landings: 2210 }
    },
    response: {
      status: "created",
      uid: "ac_01kaqz3m4d8yq0h2bt5cw7"
    }
  },
  updateAircraft: {
    params: {
      id: "demo-vh-xyz"
    },
    body: {
      maintenanceTrackingItems: {
        airframeHours: { displayText: "Airframe hours (TTIS)", type: "number", precision: 1 }
      }
    },
    response: {
      status: "updated",
      uid: "demo-vh-xyz"
    }
  },
  deleteAircraft: {
    params: {
      id: "demo-vh-gld"
    },
    response: {
      status: "deleted",
      uid: "demo-vh-gld"
    }
  },
  createUser: {
    body: {
      uid: "auth0|6571e2a9c0ffee",
      email: "engineer@demo.fleetops.test",
      displayName: "Erin Engineer",
      firstName: "Erin",
      lastName: "Engineer",
      roles: ["engineer"],
      phone: "+61400000001",
      timezone: "Australia/Sydney"
    },
    response: {
      status: "created",
      uid: "auth0|6571e2a9c0ffee"
    }
  },
  updateUser: {
    params: {
      uid: "demo-driver"
    },
    body: {
      roles: ["driver", "pilot"],
      timezone: "Australia/Brisbane"
    },
    response: {
      status: "updated",
      uid: "demo-driver"
    }
  },
  listApiKeys: {
    response: {
      count: 2,
      data: [
        {
          createdAt: "2026-11-23T16:19:25.101Z",
          id: "key_01kaqw9b3r2m6c5v8n0d4e",
          lastUsedAt: "2026-11-23T16:25:02.318Z",
          name: "demo",
          prefix: "fo_live_8kPq",
          revokedAt: null,
          scope: "admin",
          userId: null
        },
        {
          createdAt: "2026-11-23T16:19:25.140Z",
          id: "key_demo_old_integration",
          lastUsedAt: null,
          name: "old integration",
          prefix: "fo_live_Zt3x",
          revokedAt: null,
          scope: "read",
          userId: null
        }
      ]
    }
  },
  createApiKey: {
    body: {
      name: "maintenance tracking integration",
      scope: "read_write"
    },
    response: {
      createdAt: "2026-11-23T16:31:10.482Z",
      id: "key_01kaqxk7w1f3t9d2s6b8h0",
      key: "fo_live_Q7mVx2LpR9sT4wYb8nC1dF6gH3jK5zA0",
      name: "maintenance tracking integration",
      prefix: "fo_live_Q7mV",
      scope: "read_write",
      userId: null
    }
  },
  revokeApiKey: {
    params: {
      id: "key_demo_old_integration"
    },
    response: {
      createdAt: "2026-11-23T16:19:25.140Z",
      id: "key_demo_old_integration",
      lastUsedAt: null,
      name: "old integration",
      prefix: "fo_live_Zt3x",
      revokedAt: "2026-11-23T16:32:44.907Z",
      scope: "read",
      userId: null
    }
  },
  listAuditLog: {
    query: {
      entity: "aircraft",
      limit: "2"
    },
    response: {
      count: 2,
      data: [
        {
          action: "updated",
          at: "2026-11-23T16:30:02.114Z",
          changes: {
            maintenanceTrackingItems: {
              after: { airframeHours: { displayText: "Airframe hours (TTIS)", precision: 1, type: "number" }, tacho: { displayText: "Tacho", precision: 2, type: "number" } },
              before: { airframeHours: { displayText: "Airframe hours", precision: 1, type: "number" }, tacho: { displayText: "Tacho", precision: 2, type: "number" } }
            }
          },
          channel: "rest",
          entity: "aircraft",
          entityId: "demo-vh-xyz",
          keyId: "key_01kaqw9b3r2m6c5v8n0d4e",
          uid: "au_01kaqxf2a9c4e6g8j0l2n4",
          userId: "demo-owner"
        },
        {
          action: "created",
          at: "2026-11-23T16:19:24.262Z",
          changes: {
            registration: { after: "VH-GLD", before: null },
            status: { after: "stored", before: null }
          },
          channel: "internal",
          entity: "aircraft",
          entityId: "demo-vh-gld",
          keyId: null,
          uid: "au_01kaqw8z1b3d5f7h9k1m3p",
          userId: "demo-owner"
        }
      ],
      nextCursor: "WyIyMDI2LTExLTIzVDE2OjE5OjI0LjI2MloiLCJhdV8wMWthcXc4ejFiM2Q1ZjdoOWsxbTNwIl0"
    }
  },
  getIntegrationSettings: {
    response: {
      sms: {
        provider: "twilio",
        accountSid: "AC0123456789abcdef0123456789abcdef",
        from: "+61255501234",
        hasAuthToken: true
      }
    }
  },
  putIntegrationSettings: {
    body: {
      sms: {
        provider: "twilio",
        accountSid: "AC0123456789abcdef0123456789abcdef",
        authToken: "your-twilio-auth-token",
        from: "+61255501234"
      }
    },
    response: {
      sms: {
        provider: "twilio",
        accountSid: "AC0123456789abcdef0123456789abcdef",
        from: "+61255501234",
        hasAuthToken: true
      }
    }
  },
};
